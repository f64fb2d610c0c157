import { canonicalize, createLinkRecord, createScope, Schemas, Topics, urlId } from '@crawler/core';
import type { CrawlJob, LinkBase, LinkRecord, Outlinks, Stage, StatusUpdate } from '@crawler/core';
import { applyStatus, type StatusPolicy } from './apply-status.js';
import { linkCandidates, recordForCandidate } from './new-link-records.js';
import { findRedirectLoop } from './redirect-chain.js';

export interface SchedulerCounters {
  outcomes: Map<string, number>;
  changes: Map<string, number>;
  discovered: number;
  linksReceived: number;
}

export function createSchedulerCounters(): SchedulerCounters {
  return { outcomes: new Map(), changes: new Map(), discovered: 0, linksReceived: 0 };
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export interface SchedulerStageOptions {
  linkbase: LinkBase;
  job: CrawlJob;
  policy: StatusPolicy;
  counters: SchedulerCounters;
  leaseMs: number;
  maxRedirectHops: number;
  /** Called with each answered URL id, so the emitter can free its in-flight slot. */
  onAnswered?(urlId: string, queueKey: string): void;
  now?: () => number;
}

/** crawl.links -> link base: inserts URLs not seen before, due now. Known URLs cost no write. */
export function createLinksStage(options: SchedulerStageOptions): Stage<Outlinks> {
  const now = options.now ?? Date.now;
  return {
    name: 'scheduler',
    input: { topic: Topics.links, schema: Schemas.Outlinks },
    outputs: [],
    async handle(message) {
      options.counters.linksReceived += message.links.length;
      const candidates = linkCandidates(message, options.job);
      if (candidates.length === 0) return [];
      const known = await options.linkbase.getMany(candidates.map((candidate) => candidate.id));
      const at = now();
      const fresh = candidates.filter((candidate) => !known.has(candidate.id)).map((candidate) => recordForCandidate(candidate, message, at)).filter((record) => record !== null);
      if (fresh.length > 0) {
        // Awaited first: `x += await y` would read x before the await and lose concurrent increments.
        const inserted = await options.linkbase.insertNew(fresh);
        options.counters.discovered += inserted.length;
      }
      return [];
    },
  };
}

/**
 * crawl.status -> link base: applies each fetch outcome to its URL's record (read-modify-write).
 * A redirect adds its target at the same depth, one redirect hop further; a chain longer than
 * the hop limit ends as too_many_redirects, and a target that leads back ends as redirect_loop.
 * A target the fetcher already fetched inline enters leased, as its own status is on the way.
 */
export function createStatusStage(options: SchedulerStageOptions): Stage<StatusUpdate> {
  const now = options.now ?? Date.now;
  const scope = createScope(options.job);
  return {
    name: 'scheduler',
    input: { topic: Topics.status, schema: Schemas.StatusUpdate },
    outputs: [],
    async handle(status) {
      const at = now();
      bump(options.counters.outcomes, status.outcome);
      if (status.change) bump(options.counters.changes, status.change);
      const updated = await options.linkbase.update([status.urlId], (record) => applyStatus(record, status, at, options.policy));
      if (updated.length === 0 && status.meta.followed !== 'true') {
        // A status for a URL the link base never saw: a page reached through an inline redirect.
        await options.linkbase.insertNew([applyStatus(createLinkRecord(status.url, { jobId: status.jobId, depth: status.depth, source: 'redirect', discoveredAt: at }), status, at, options.policy)]);
      }
      options.onAnswered?.(status.urlId, status.queueKey);
      if (status.outcome === 'redirect' && status.redirectTo && updated[0]) await followRedirect(updated[0], status, at);
      return [];
    },
  };

  async function followRedirect(source: LinkRecord, status: StatusUpdate, at: number): Promise<void> {
    const target = canonicalize(status.redirectTo!);
    const followed = status.meta.followed === 'true';
    if (!target.ok || (!followed && scope.check(target.parsed, new URL(status.url)) !== null)) return;
    const hops = source.redirectHops + 1;
    if (hops > options.maxRedirectHops) return fail(source, 'too_many_redirects', 'REDIRECT_LIMIT');
    const targetId = urlId(target.url);
    const known = (await options.linkbase.getMany([targetId])).get(targetId);
    if (known) {
      const loop = await findRedirectLoop(options.linkbase, known, source.url, options.maxRedirectHops);
      if (loop) for (const member of [source, ...loop]) await fail(member, 'redirect_loop', 'REDIRECT_LOOP');
      return;
    }
    const record = createLinkRecord(target.url, {
      jobId: status.jobId,
      depth: source.depth,
      source: 'redirect',
      discoveredAt: at,
      nextFetchAt: at,
      redirectHops: hops,
      leaseUntil: followed ? at + options.leaseMs : 0,
    });
    const inserted = await options.linkbase.insertNew([record]);
    options.counters.discovered += inserted.length;
  }

  async function fail(record: LinkRecord, outcome: string, code: string): Promise<void> {
    bump(options.counters.outcomes, outcome);
    await options.linkbase.update([record.id], (current) => ({ ...current, status: 'error', lastOutcome: outcome, errorCode: code }));
  }
}
