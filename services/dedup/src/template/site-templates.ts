import type { FingerprintStore } from '@crawler/core';
import { learnTemplate, sampleOf } from './learn-template.js';
import type { PageBlock } from '@crawler/core';
import { decodeTemplate, encodeTemplate, mergeTemplates, unknownShare, type SiteTemplate } from './site-template.js';

export const TEMPLATE_NAMESPACE = 'template';
export const SAMPLE_NAMESPACE = 'tsample';
/** Samples wait at most a day for the rest; a site that slow gets sampled again. */
const SAMPLE_TTL_MS = 24 * 3600_000;
/**
 * A page with more than this share of its blocks at paths the template never saw does not fit it:
 * a kind of page the first samples missed (articles, when the crawl began with the front page and
 * sections), or a redesign. Such pages are sampled, and the template learned from them is added.
 */
const UNFIT_SHARE = 0.2;
const MIN_UNKNOWN_BLOCKS = 3;

export interface SiteTemplatesOptions {
  store: FingerprintStore;
  /** Distinct pages compared before a template is learned. */
  samplePages: number;
  /** A template older than this is learned again from fresh pages (kept in use meanwhile). */
  relearnAfterMs: number;
  ttlMs: number;
  /** How long this process trusts its copy of a site's template before reading the store again. */
  cacheMs?: number;
  maxCachedSites?: number;
  now?: () => number;
}

export type Observation = 'learned' | 'sampled' | null;

/**
 * Templates per site in the fingerprint store, shared by every dedup worker, with a small cache in
 * each. While a site has no template, or its template is old or no longer fits (most blocks of a
 * page at paths it never saw: the site was redesigned), its pages are added to a sample set; once
 * the set holds `samplePages` distinct pages, whichever worker sees that learns the template
 * (two that do so at once write equal templates).
 */
export class SiteTemplates {
  private readonly cache = new Map<string, { template: SiteTemplate | null; readAt: number }>();
  private readonly reads = new Map<string, Promise<SiteTemplate | null>>();
  private readonly learning = new Map<string, Promise<void>>();
  private readonly now: () => number;
  private readonly cacheMs: number;
  private readonly maxCachedSites: number;

  constructor(private readonly options: SiteTemplatesOptions) {
    this.now = options.now ?? Date.now;
    this.cacheMs = options.cacheMs ?? 60_000;
    this.maxCachedSites = options.maxCachedSites ?? 10_000;
  }

  async get(site: string): Promise<SiteTemplate | null> {
    const cached = this.cache.get(site);
    if (cached && this.now() - cached.readAt < this.cacheMs) return cached.template;
    let read = this.reads.get(site);
    if (!read) {
      read = this.options.store
        .get(TEMPLATE_NAMESPACE, [site])
        .then(([value]) => {
          const template = value ? decodeTemplate(value) : null;
          this.remember(site, template);
          return template;
        })
        .finally(() => this.reads.delete(site));
      this.reads.set(site, read);
    }
    return read;
  }

  /** Adds the page to the site's samples when learning is due, and learns once enough are in. */
  async observe(
    site: string,
    blocks: readonly PageBlock[],
    title: string | null,
    template: SiteTemplate | null,
  ): Promise<Observation> {
    if (blocks.length === 0 || !this.learningDue(blocks, template)) return null;
    const { store, samplePages } = this.options;
    await store.addToSets([
      { namespace: SAMPLE_NAMESPACE, key: site, members: [sampleOf(blocks, title)], ttlMs: SAMPLE_TTL_MS },
    ]);
    const [samples] = await store.members(SAMPLE_NAMESPACE, [site]);
    // Pages of a site handled at once all see the full sample set: one of them learns.
    if (!samples || samples.length < samplePages || this.learning.has(site)) return 'sampled';
    const learning = this.learn(site, samples, template).finally(() => this.learning.delete(site));
    this.learning.set(site, learning);
    await learning;
    return 'learned';
  }

  private async learn(site: string, samples: string[], template: SiteTemplate | null): Promise<void> {
    const { store } = this.options;
    // Sampled because pages did not fit a template still young: add to it; an old one is replaced.
    const fresh = learnTemplate(samples, this.now());
    const learned = template && !this.isOld(template) ? mergeTemplates(template, fresh) : fresh;
    await store.set([
      { namespace: TEMPLATE_NAMESPACE, key: site, value: encodeTemplate(learned), ttlMs: this.options.ttlMs },
    ]);
    await store.delete(SAMPLE_NAMESPACE, [site]);
    this.remember(site, learned);
  }

  private learningDue(blocks: readonly PageBlock[], template: SiteTemplate | null): boolean {
    if (!template) return true;
    if (this.isOld(template)) return true;
    const share = unknownShare(blocks, template);
    return share > UNFIT_SHARE && share * blocks.length >= MIN_UNKNOWN_BLOCKS;
  }

  private isOld(template: SiteTemplate): boolean {
    return this.now() - template.learnedAt > this.options.relearnAfterMs;
  }

  private remember(site: string, template: SiteTemplate | null): void {
    this.cache.delete(site);
    this.cache.set(site, { template, readAt: this.now() });
    if (this.cache.size > this.maxCachedSites) this.cache.delete(this.cache.keys().next().value as string);
  }
}
