import { canonicalizeUrl } from '../canonical-url.js';
import { ModelError } from '../errors.js';
import { createRandom, unitHash } from '../seeded-random.js';
import { writeParagraphs } from '../text/prose.js';
import { type HrefForm, type Location, writeHref } from './href-forms.js';
import type { Content, HostModel, Link, LinkKind, LinkPlacement, PageSpec, Resource } from './web-model.js';

export interface LinkOptions {
  form?: HrefForm;
  kind?: LinkKind;
  placement?: LinkPlacement;
}

/** A link from a page (or its <base>) at `from` to `to`, written in the requested form. */
export function makeLink(from: Location, to: Location, text: string, options: LinkOptions = {}): Link {
  const href = writeHref(from, to, options.form ?? 'root');
  return {
    href,
    target: canonicalizeUrl(`${to.origin}${to.path}`) as string,
    text,
    kind: options.kind ?? 'a',
    placement: options.placement ?? 'main',
  };
}

/** Generated prose whose text depends only on (seed, key, edition). */
export function proseContent(seed: number, key: string, changeRate: number, paragraphCount: number): Content {
  return {
    key,
    changeRate,
    paragraphs: (edition) => writeParagraphs(createRandom(seed, 'prose', key, edition), paragraphCount),
  };
}

/** Content that never changes. */
export function fixedContent(key: string, paragraphs: string[]): Content {
  return { key, changeRate: 0, paragraphs: () => paragraphs };
}

const CHANGE_RATES = [0, 0, 0, 0.1, 0.1, 0.1, 0.3, 0.3, 1] as const;

/** One of the per-round change probabilities 0, 0.1, 0.3 and 1, fixed by the seed and key. */
export function pickChangeRate(seed: number, key: string): number {
  return CHANGE_RATES[Math.floor(unitHash(seed, 'rate', key) * CHANGE_RATES.length)] as number;
}

export function standardPage(
  fields: Pick<PageSpec, 'title' | 'template' | 'content' | 'links'> & Partial<PageSpec>,
): PageSpec {
  return { layout: 'standard', ...fields };
}

/** Adds a resource, refusing to overwrite one: two builders claiming a path is a model bug. */
export function addResource(host: HostModel, path: string, resource: Resource): void {
  if (host.resources.has(path)) throw new ModelError(`duplicate path ${host.name}${path}`);
  host.resources.set(path, resource);
}

export function addPage(host: HostModel, path: string, page: PageSpec): void {
  addResource(host, path, { kind: 'page', page });
}

export function createHost(name: string, origin: string, traits: Pick<HostModel, 'noise' | 'validators'>): HostModel {
  return { name, origin, resources: new Map(), traps: [], relatedPool: [], ...traits };
}
