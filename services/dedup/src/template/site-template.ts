import { murmur32 } from '@crawler/core';
import { hex32 } from '../fingerprint/feature-hash.js';
import type { PageBlock } from '@crawler/core';

/**
 * A site's template, learned by comparing the block trees of several of its pages (see
 * learn-template.ts). Blocks it covers are noise: stripped before hashing.
 */
export interface SiteTemplate {
  /** Hash of what the template strips: equal templates have equal versions, whoever learned them. */
  version: string;
  learnedAt: number;
  pages: number;
  /** Paths whose texts repeat from page to page (navigation, counters, ads): all they hold is noise. */
  paths: ReadonlySet<number>;
  /** Path and text pairs found on many pages, at paths that also hold content ("Share this story"). */
  pairs: ReadonlySet<string>;
  /** Paths seen on at least two sampled pages; a page mostly outside them means the site changed. */
  known: ReadonlySet<number>;
  /** Keys of title parts on most pages (the site's name), left out of headlines. */
  titleParts: ReadonlySet<string>;
}

/** No template yet: nothing is stripped, and digests say so. */
export const NO_TEMPLATE = '0';

export function pairKey(path: number, masked: number): string {
  return `${hex32(path)}${hex32(masked)}`;
}

export function isTemplateBlock(block: PageBlock, template: SiteTemplate): boolean {
  return template.paths.has(block.path) || template.pairs.has(pairKey(block.path, block.masked));
}

/** Share of a page's blocks at paths the template never saw. */
export function unknownShare(blocks: readonly PageBlock[], template: SiteTemplate): number {
  if (blocks.length === 0) return 0;
  let unknown = 0;
  for (const block of blocks) if (!template.known.has(block.path)) unknown++;
  return unknown / blocks.length;
}

export function templateVersion(
  paths: Iterable<number>,
  pairs: Iterable<string>,
  titleParts: Iterable<string>,
): string {
  const text = `${[...paths].map(hex32).sort().join('')}|${[...pairs].sort().join('')}|${[...titleParts].sort().join('')}`;
  return hex32(murmur32(text, 1));
}

/**
 * A template learned from pages the current one did not fit, added to it: a site with a gallery
 * section next to its articles ends with one template for both instead of flipping between them.
 */
export function mergeTemplates(current: SiteTemplate, learned: SiteTemplate): SiteTemplate {
  const paths = new Set([...current.paths, ...learned.paths]);
  const pairs = new Set([...current.pairs, ...learned.pairs]);
  const titleParts = new Set([...current.titleParts, ...learned.titleParts]);
  return {
    version: templateVersion(paths, pairs, titleParts),
    learnedAt: current.learnedAt,
    pages: current.pages + learned.pages,
    paths,
    pairs,
    known: new Set([...current.known, ...learned.known]),
    titleParts,
  };
}

/** Compact JSON: hashes as concatenated hex, 8 digits per path and title part, 16 per pair. */
export function encodeTemplate(template: SiteTemplate): string {
  return JSON.stringify({
    v: 1,
    at: template.learnedAt,
    n: template.pages,
    p: [...template.paths].map(hex32).join(''),
    q: [...template.pairs].join(''),
    k: [...template.known].map(hex32).join(''),
    t: [...template.titleParts].join(''),
  });
}

export function decodeTemplate(value: string): SiteTemplate | null {
  try {
    const raw = JSON.parse(value) as { v: number; at: number; n: number; p: string; q: string; k: string; t?: string };
    if (raw.v !== 1) return null;
    const paths = new Set(chunks(raw.p, 8).map((hex) => Number.parseInt(hex, 16)));
    const pairs = new Set(chunks(raw.q, 16));
    const titleParts = new Set(chunks(raw.t ?? '', 8));
    return {
      version: templateVersion(paths, pairs, titleParts),
      learnedAt: raw.at,
      pages: raw.n,
      paths,
      pairs,
      known: new Set(chunks(raw.k, 8).map((hex) => Number.parseInt(hex, 16))),
      titleParts,
    };
  } catch {
    return null;
  }
}

function chunks(value: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + size <= value.length; i += size) out.push(value.slice(i, i + size));
  return out;
}
