import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Codec, loadCatalog, parseCrawlJob, silentLogger, statusUpdate, type LinkRecord } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { FileLinkBase, InProcessBus } from '@crawler/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { FrontierEmitter } from './frontier-emitter.js';
import { JobRegistry } from './jobs/job-registry.js';
import { PartitionFencedError, PartitionOwnership } from './partition-ownership.js';
import { createSchedulerCounters, createStatusStage } from './scheduler-stages.js';

const log = silentLogger();
const NOW = 10_000;

/** Two schedulers' worth of ownership, emitters and status stages on one link base and one bus. */
async function twoSchedulers(job: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ownership-'));
  const linkbase = await FileLinkBase.open(dir);
  const bus = new InProcessBus();
  await bus.createTopics(loadCatalog().topics);
  const jobs = new JobRegistry(parseCrawlJob(job));
  const scheduler = () => {
    const ownership = new PartitionOwnership(linkbase, log);
    const emitter = new FrontierEmitter({
      linkbase,
      ownership,
      producer: bus.producer(),
      codec: new Codec(),
      jobs,
      logger: log,
      tickMs: 10,
      batchSize: 1000,
      perHostPerRound: 1000,
      maxInFlight: 1000,
      maxInFlightPerHost: 2,
      leaseMs: 60_000,
      maxLeaseExpiries: 3,
      selection: { classShares: { discovery: 1 }, levelWeights: [8, 4, 2, 1], hostOrder: 'breadth-first' },
      now: () => NOW,
    });
    const lost: number[][] = [];
    ownership.listen({
      gained: async (partitions) => emitter.adopt(await linkbase.findLeased({ now: NOW, partitions, limit: 1000 })),
      lost: (partitions) => {
        lost.push(partitions);
        emitter.release(partitions);
      },
    });
    return { ownership, emitter, lost };
  };
  const cleanup = async () => {
    await bus.close();
    await linkbase.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { linkbase, jobs, a: scheduler(), b: scheduler(), cleanup };
}

/** URLs on many hosts, so every partition has some. */
function records(count: number, hosts = 'host'): LinkRecord[] {
  return Array.from({ length: count }, (_, i) => makeLinkRecord(`http://${hosts}-${i % 60}.test/${i}`));
}

async function leased(linkbase: FileLinkBase): Promise<LinkRecord[]> {
  return linkbase.findLeased({ now: NOW, limit: 10_000 });
}

describe('partition ownership', () => {
  let cleanup: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await cleanup?.();
    cleanup = null;
  });

  it('fences a scheduler out of a partition another claimed after it, and keeps the rest', async () => {
    const ctx = await twoSchedulers();
    cleanup = ctx.cleanup;
    ctx.a.ownership.assign([0, 1]);
    await ctx.a.ownership.assertOwned(1);
    ctx.b.ownership.assign([1]);
    await ctx.b.ownership.assertOwned(1);
    // A never heard of the rebalance: its next check finds B's newer epoch.
    expect(ctx.a.ownership.owned).toEqual([0, 1]);
    await ctx.a.ownership.verify();
    expect(ctx.a.ownership.owned).toEqual([0]);
    expect(ctx.a.lost).toEqual([[1]]);
    await expect(ctx.a.ownership.assertOwned(1)).rejects.toBeInstanceOf(PartitionFencedError);
    await ctx.b.ownership.verify();
    expect(ctx.b.ownership.owned).toEqual([1]);
  });

  it('hands out only the URLs of owned partitions, and none once fenced out', async () => {
    const ctx = await twoSchedulers();
    cleanup = ctx.cleanup;
    await ctx.linkbase.insertNew(records(240));
    ctx.a.ownership.assign([0, 1, 2, 3, 4, 5]);
    ctx.b.ownership.assign([6, 7, 8, 9, 10, 11]);
    await Promise.all([ctx.a.ownership.assertOwned(0), ctx.b.ownership.assertOwned(6)]);
    await Promise.all([ctx.a.emitter.runRound(), ctx.b.emitter.runRound()]);
    const byPartition = (await leased(ctx.linkbase)).map((record) => record.partition);
    expect(new Set(byPartition).size).toBe(12);
    expect(ctx.a.emitter.emitted + ctx.b.emitter.emitted).toBe(byPartition.length);
    expect(ctx.a.emitter.emitted).toBe(byPartition.filter((partition) => partition < 6).length);

    // B takes partition 0 over while A still believes it holds it: A leases nothing more there.
    ctx.b.ownership.assign([0]);
    await ctx.b.ownership.assertOwned(0);
    await ctx.linkbase.insertNew(records(240, 'later'));
    await ctx.a.emitter.runRound();
    const later = (await leased(ctx.linkbase)).filter((record) => record.host.startsWith('later-'));
    expect(later.length).toBeGreaterThan(0);
    expect(later.filter((record) => record.partition === 0)).toEqual([]);
  });

  it('takes over the URLs in flight of a partition it gains: they hold their hosts in-flight slots', async () => {
    const ctx = await twoSchedulers();
    cleanup = ctx.cleanup;
    await ctx.linkbase.insertNew(records(240));
    ctx.a.ownership.assign([...Array(12).keys()]);
    await ctx.a.ownership.assertOwned(0);
    await ctx.a.emitter.runRound();
    const inFlight = await leased(ctx.linkbase);
    expect(inFlight.length).toBe(120); // 2 per host, 60 hosts
    // A dies; B gets everything and rebuilds what A had in flight from the link base.
    ctx.b.ownership.assign([...Array(12).keys()]);
    await ctx.b.ownership.assertOwned(0);
    expect(ctx.b.emitter.inFlightCount).toBe(120);
    await ctx.b.emitter.runRound();
    expect(ctx.b.emitter.emitted).toBe(0);
    expect((await leased(ctx.linkbase)).length).toBe(120);
  });

  it('holds a page budget across schedulers', async () => {
    const ctx = await twoSchedulers({ maxPages: 25 });
    cleanup = ctx.cleanup;
    await ctx.linkbase.insertNew(records(240));
    ctx.a.ownership.assign([0, 1, 2, 3, 4, 5]);
    ctx.b.ownership.assign([6, 7, 8, 9, 10, 11]);
    await Promise.all([ctx.a.ownership.assertOwned(0), ctx.b.ownership.assertOwned(6)]);
    for (let round = 0; round < 3; round++) await Promise.all([ctx.a.emitter.runRound(), ctx.b.emitter.runRound()]);
    expect((await leased(ctx.linkbase)).length).toBe(25);
    expect(ctx.a.emitter.emitted + ctx.b.emitter.emitted).toBe(25);
    expect(ctx.a.emitter.budgetSpent && ctx.b.emitter.budgetSpent).toBe(true);
  });

  it('leaves a status of a partition it does not own to its owner', async () => {
    const ctx = await twoSchedulers();
    cleanup = ctx.cleanup;
    const record = makeLinkRecord('http://fenced.test/');
    await ctx.linkbase.insertNew([record]);
    await ctx.linkbase.lease([record.id], NOW + 60_000, NOW);
    const others = [...Array(12).keys()].filter((partition) => partition !== record.partition);
    ctx.a.ownership.assign(others);
    const stage = createStatusStage({
      linkbase: ctx.linkbase,
      jobs: ctx.jobs,
      ownership: ctx.a.ownership,
      policy: {
        minIntervalMs: 1000,
        maxIntervalMs: 10_000,
        targetProbability: 0.5,
        hubBoost: 3,
        maxAttempts: 3,
        retryBaseMs: 1,
        retryMaxMs: 1,
      },
      counters: createSchedulerCounters(),
      leaseMs: 1000,
      maxRedirectHops: 5,
      countInlinks: true,
      now: () => NOW,
    });
    const status = statusUpdate(
      { ...record, urlId: record.id, traceId: 't', jobId: record.jobId },
      { outcome: 'ok', fetchedAt: NOW, httpStatus: 200 },
    );
    await expect(stage.handle(status, {} as never)).rejects.toBeInstanceOf(PartitionFencedError);
    expect((await ctx.linkbase.getMany([record.id])).get(record.id)).toMatchObject({ status: 'queued', fetchCount: 0 });
    ctx.a.ownership.assign([record.partition]);
    await stage.handle(status, {} as never);
    expect((await ctx.linkbase.getMany([record.id])).get(record.id)).toMatchObject({
      status: 'fetched',
      fetchCount: 1,
    });
  });
});
