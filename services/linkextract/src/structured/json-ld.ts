import type { RawLink } from '../html/raw-link.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface JsonLdResult {
  /** Flat fields of the top-level entities: `jsonld:@type`, `jsonld:headline`, `jsonld:author`… */
  fields: Map<string, string[]>;
  links: RawLink[];
  datePublished: string | null;
  invalidBlocks: number;
}

/** Properties whose values are pages a crawler may follow (images, logos and media are not). */
const LINK_PROPERTIES = new Set([
  'url',
  '@id',
  'mainentityofpage',
  'sameas',
  'relatedlink',
  'significantlink',
  'discussionurl',
  'item',
  'isbasedon',
  'haspart',
  'ispartof',
]);
const MEDIA_TYPES = /^(?:ImageObject|VideoObject|AudioObject|MediaObject)$/;
const MAX_VALUES = 20;
const MAX_VALUE_CHARS = 1000;
const MAX_OBJECTS = 2000;

/**
 * Reads JSON-LD blocks. The scalar properties of each top-level entity (the block itself or its
 * @graph members) become `jsonld:<property>` fields; a nested entity contributes its name. Links
 * come from URL-valued properties at any depth, media objects excepted. A block that is not JSON
 * is counted, not fatal.
 */
export function readJsonLd(blocks: readonly string[]): JsonLdResult {
  const fields = new Map<string, string[]>();
  const links: RawLink[] = [];
  let datePublished: string | null = null;
  let invalidBlocks = 0;
  const add = (key: string, value: string) => {
    const clean = value.trim().slice(0, MAX_VALUE_CHARS);
    if (!clean) return;
    const list = fields.get(key) ?? [];
    if (list.length < MAX_VALUES && !list.includes(clean)) list.push(clean);
    fields.set(key, list);
  };

  for (const block of blocks) {
    let parsed: Json;
    try {
      parsed = JSON.parse(block.trim().replace(/^<!--|-->$/g, '')) as Json;
    } catch {
      invalidBlocks++;
      continue;
    }
    for (const entity of topLevelEntities(parsed)) {
      for (const [property, value] of Object.entries(entity)) {
        if (property === '@context' || property === '@graph') continue;
        for (const item of Array.isArray(value) ? value : [value]) {
          if (typeof item === 'string' || typeof item === 'number') add(`jsonld:${property}`, String(item));
          else if (item && typeof item === 'object' && !Array.isArray(item)) {
            const name = item.name ?? item.headline;
            if (typeof name === 'string') add(`jsonld:${property}`, name);
          }
        }
        if (property === 'datePublished' && datePublished === null && typeof value === 'string') datePublished = value;
      }
    }
    collectLinks(parsed, links);
  }
  return { fields, links, datePublished, invalidBlocks };
}

function topLevelEntities(value: Json): JsonObject[] {
  const roots = Array.isArray(value) ? value : [value];
  const out: JsonObject[] = [];
  for (const root of roots) {
    if (!root || typeof root !== 'object' || Array.isArray(root)) continue;
    const graph = root['@graph'];
    if (Array.isArray(graph))
      for (const member of graph) if (member && typeof member === 'object' && !Array.isArray(member)) out.push(member);
    if (root['@type'] !== undefined) out.push(root);
  }
  return out;
}

/** URL-valued link properties anywhere in the block (iterative, bounded), skipping media objects. */
function collectLinks(value: Json, links: RawLink[]): void {
  const stack: Json[] = [value];
  let visited = 0;
  while (stack.length > 0 && visited++ < MAX_OBJECTS) {
    const item = stack.pop()!;
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]!);
      continue;
    }
    if (!item || typeof item !== 'object') continue;
    const type = item['@type'];
    if (typeof type === 'string' && MEDIA_TYPES.test(type)) continue;
    for (const [key, child] of Object.entries(item)) {
      if (key === '@context') continue;
      if (LINK_PROPERTIES.has(key.toLowerCase())) {
        for (const candidate of Array.isArray(child) ? child : [child]) {
          if (typeof candidate === 'string' && /^(?:https?:)?\/\//i.test(candidate.trim()))
            links.push({ href: candidate.trim(), anchor: null, rel: key, source: 'jsonld' });
        }
      }
      if (child && typeof child === 'object') stack.push(child);
    }
  }
}
