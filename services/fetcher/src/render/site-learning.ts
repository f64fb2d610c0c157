import type { FingerprintStore } from '@crawler/core';

export type SiteDecision = 'learning' | 'render' | 'skip';

export interface SiteLearningOptions {
  /** Renders of a site before its decision is taken. */
  samples: number;
  /** How long a decision (and the samples towards it) is kept. */
  ttlMs: number;
  now?: () => number;
}

const SAMPLES = 'render-samples';
const DECISIONS = 'render-decision';
/** A decision read from the store is reused this long before it is read again. */
const LOCAL_MS = 30_000;

/**
 * Learns per site whether rendering pays: the first `samples` renders of a site each record
 * whether rendering changed its links or main text; if none did, the site's pages are no longer
 * rendered until the decision expires. Samples and decisions live in the fingerprint store, so
 * every fetcher contributes to and follows the same decision; a set of samples keyed by page makes
 * a redelivered page count once.
 */
export class SiteLearning {
  private readonly local = new Map<string, { decision: SiteDecision; until: number }>();
  private readonly now: () => number;

  constructor(
    private readonly store: FingerprintStore,
    private readonly options: SiteLearningOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async decision(site: string): Promise<SiteDecision> {
    const cached = this.local.get(site);
    if (cached && cached.until > this.now()) return cached.decision;
    const [stored] = await this.store.get(DECISIONS, [site]);
    const decision: SiteDecision = stored === 'render' || stored === 'skip' ? stored : 'learning';
    return this.remember(site, decision);
  }

  /** Records one render of a page of the site; returns the site's decision afterwards. */
  async record(site: string, pageId: string, changed: boolean): Promise<SiteDecision> {
    await this.store.addToSet(SAMPLES, site, [`${pageId}:${changed ? 1 : 0}`], this.options.ttlMs);
    const [samples = []] = await this.store.members(SAMPLES, [site]);
    if (samples.length < this.options.samples) return this.remember(site, 'learning');
    const decision: SiteDecision = samples.some((sample) => sample.endsWith(':1')) ? 'render' : 'skip';
    await this.store.set([{ namespace: DECISIONS, key: site, value: decision, ttlMs: this.options.ttlMs }]);
    return this.remember(site, decision);
  }

  private remember(site: string, decision: SiteDecision): SiteDecision {
    // Only a taken decision is worth caching; while learning, the next sample may settle it.
    if (decision !== 'learning') this.local.set(site, { decision, until: this.now() + LOCAL_MS });
    if (this.local.size > 10_000) this.local.delete(this.local.keys().next().value as string);
    return decision;
  }
}
