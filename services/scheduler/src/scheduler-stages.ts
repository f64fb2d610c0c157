import {
  canonicalize,
  createLinkRecord,
  ErrorCode,
  fetchNow,
  linkPartition,
  Schemas,
  Topics,
  linkRecordId,
  withNextFetch,
} from '@crawler/core';
import type { LinkBase, LinkRecord, Outlinks, Stage, StatusUpdate } from '@crawler/core';
import { applyStatus, type StatusPolicy } from './apply-status.js';
import type { JobRegistry } from './jobs/job-registry.js';
import { addInlink, linkCandidates, recordForCandidate, updateSitemapHints } from './new-link-records.js';
import { addYield } from './policy/link-yield.js';
import { discoveryPlan } from './policy/recrawl-plan.js';
import { PartitionFencedError, type PartitionOwnership } from './partition-ownership.js';
import { findRedirectLoop } from './redirect-chain.js';
import { UpdateBatcher } from './update-batcher.js';

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
  jobs: JobRegistry;
  /** The status policy; its initial re-crawl interval is each job's own recrawlIntervalMs. */
  policy: Omit<StatusPolicy, 'initialIntervalMs'>;
  counters: SchedulerCounters;
  leaseMs: number;
  maxRedirectHops: number;
  /** Count links to known URLs and keep their anchors (a batched write per message). */
  countInlinks: boolean;
  /** The partitions whose statuses this scheduler applies; absent, every partition is this process's. */
  ownership?: PartitionOwnership;
  /** Shared by both stages, so their single-record writes are batched together. */
  updates?: UpdateBatcher;
  /** Called with each answered URL id, so the emitter can free its in-flight slot. */
  onAnswered?(urlId: string, queueKey: string): void;
  now?: () => number;
  random?: () => number;
}

/**
 * crawl.links -> link base: inserts URLs not seen before, due now, valued by the weight function,
 * with the sitemap's lastmod and changefreq when a sitemap listed them. A known URL linked again
 * gains an inlink and the link's anchor text, and a sitemap's hints unless they are older than its
 * stored ones (a lastmod after its last fetch makes it due now); the page the links came from gains link yield for each new URL (hub feedback). All
 * of these are batched writes.
 */
export function createLinksStage(options: SchedulerStageOptions): Stage<Outlinks> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const updates = options.updates ?? new UpdateBatcher(options.linkbase);
  return {
    name: 'scheduler',
    input: { topic: Topics.links, schema: Schemas.Outlinks },
    outputs: [],
    async handle(message) {
      options.counters.linksReceived += message.links.length;
      const candidates = linkCandidates(message, options.jobs.get(message.jobId), options.jobs.scope(message.jobId));
      if (candidates.length === 0) return [];
      const known = await options.linkbase.getMany(candidates.map((candidate) => candidate.id));
      const at = now();
      const fresh = candidates
        .filter((candidate) => !known.has(candidate.id))
        .map((candidate) => recordForCandidate(candidate, message, at, random))
        .filter((record) => record !== null);
      // Awaited first: `x += await y` would read x before the await and lose concurrent increments.
      const inserted = fresh.length > 0 ? await options.linkbase.insertNew(fresh) : [];
      options.counters.discovered += inserted.length;
      const writes: Promise<unknown>[] = [];
      for (const candidate of candidates) {
        const stored = known.get(candidate.id);
        if (!stored) continue;
        const inlink = options.countInlinks && candidate.id !== message.sourceUrlId;
        const hinted = updateSitemapHints(stored, candidate.hints, at) !== stored;
        if (inlink || hinted)
          writes.push(
            updates.update(candidate.id, (record) =>
              updateSitemapHints(inlink ? addInlink(record, candidate.anchors) : record, candidate.hints, at),
            ),
          );
      }
      if (message.kind === 'page' && message.sourceUrlId && inserted.length > 0) {
        writes.push(
          updates.update(message.sourceUrlId, (record) => ({
            ...record,
            linkYield: addYield(record.linkYield, inserted.length),
          })),
        );
      }
      await Promise.all(writes);
      return [];
    },
  };
}

/**
 * crawl.status -> link base: applies each fetch outcome to its URL's record (read-modify-write,
 * batched). A redirect adds its target at the same depth, one redirect hop further; a chain longer
 * than the hop limit ends as too_many_redirects, and a target that leads back ends as
 * redirect_loop. A target the fetcher already fetched inline enters leased, as its own status is
 * on the way. A status is applied only while this scheduler owns its partition (its epoch checked
 * before the batch's write); otherwise it fails as retriable and is left to the partition's next owner.
 */
export function createStatusStage(options: SchedulerStageOptions): Stage<StatusUpdate> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const updates = options.updates ?? new UpdateBatcher(options.linkbase);
  const policyOf = (jobId: string): StatusPolicy => ({
    ...options.policy,
    random,
    initialIntervalMs: options.jobs.get(jobId).recrawlIntervalMs,
  });
  return {
    name: 'scheduler',
    input: { topic: Topics.status, schema: Schemas.StatusUpdate },
    outputs: [],
    async handle(message) {
      const ownership = options.ownership;
      const partition = linkPartition(message.queueKey);
      await ownership?.assertOwned(partition);
      const at = now();
      // The target in the link base's one form, stored on the record too, so loops are found by id.
      const target = message.redirectTo ? canonicalize(message.redirectTo) : null;
      const status = target?.ok ? { ...message, redirectTo: target.url } : message;
      bump(options.counters.outcomes, status.outcome);
      if (status.change) bump(options.counters.changes, status.change);
      const policy = policyOf(status.jobId);
      const updated = await updates.update(status.urlId, (record) =>
        !ownership || ownership.owns(partition) ? applyStatus(record, status, at, policy) : null,
      );
      if (ownership && !ownership.owns(partition)) throw new PartitionFencedError(partition);
      if (!updated && status.meta.followed !== 'true') {
        // A status for a URL the link base never saw: a page reached through an inline redirect.
        const record = createLinkRecord(status.url, {
          jobId: status.jobId,
          depth: status.depth,
          source: 'redirect',
          discoveredAt: at,
        });
        await options.linkbase.insertNew([applyStatus({ ...record, ...discoveryPlan(record) }, status, at, policy)]);
      }
      options.onAnswered?.(status.urlId, status.queueKey);
      if (status.outcome === 'redirect' && target?.ok && updated) await followRedirect(updated, status, target, at);
      return [];
    },
  };

  async function followRedirect(
    source: LinkRecord,
    status: StatusUpdate,
    target: { url: string; parsed: URL },
    at: number,
  ): Promise<void> {
    const followed = status.meta.followed === 'true';
    if (!followed && options.jobs.scope(status.jobId).check(target.parsed, new URL(status.url)) !== null) return;
    const hops = source.redirectHops + 1;
    if (hops > options.maxRedirectHops) return fail(source, 'too_many_redirects', ErrorCode.REDIRECT_LIMIT);
    const targetId = linkRecordId(status.jobId, target.url);
    const known = (await options.linkbase.getMany([targetId])).get(targetId);
    if (known) {
      const loop = await findRedirectLoop(options.linkbase, known, source.url, options.maxRedirectHops);
      if (loop) for (const member of [source, ...loop]) await fail(member, 'redirect_loop', ErrorCode.REDIRECT_LOOP);
      return;
    }
    const record = withNextFetch(
      createLinkRecord(target.url, {
        jobId: status.jobId,
        depth: source.depth,
        source: 'redirect',
        discoveredAt: at,
        redirectHops: hops,
        rank: random(),
        leaseUntil: followed ? at + options.leaseMs : 0,
      }),
      fetchNow,
      at,
    );
    const inserted = await options.linkbase.insertNew([{ ...record, ...discoveryPlan(record) }]);
    options.counters.discovered += inserted.length;
  }

  async function fail(record: LinkRecord, outcome: string, code: string): Promise<void> {
    bump(options.counters.outcomes, outcome);
    await options.linkbase.update([record.id], (current) => ({
      ...current,
      status: 'error',
      lastOutcome: outcome,
      errorCode: code,
    }));
  }
}
