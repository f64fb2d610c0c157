import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Codec, loadCatalog, parseCrawlJob, silentLogger, Topics, TRACE_HEADER } from '@crawler/core';
import type { FrontierRequest } from '@crawler/core';
import { makeLinkRecord, waitFor } from '@crawler/core/testing';
import { FileLinkBase, InProcessBus } from '@crawler/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { FrontierEmitter, type FrontierEmitterOptions } from './frontier-emitter.js';
import { JobRegistry } from './jobs/job-registry.js';

const codec = new Codec();

async function setup(overrides: Partial<FrontierEmitterOptions> = {}, alreadyHandedOut: Record<string, number> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'emitter-'));
  const linkbase = await FileLinkBase.open(dir);
  const bus = new InProcessBus();
  await bus.createTopics(loadCatalog().topics);
  const sent: FrontierRequest[] = [];
  const headers: Record<string, string>[] = [];
  const consumer = bus.consumer({ groupId: 'probe', topics: [Topics.frontier], fromBeginning: true });
  await consumer.start({
    onMessage: async (message) => {
      sent.push(codec.decode(message.value));
      headers.push(message.headers);
    },
  });
  let clock = 10_000;
  const emitter = new FrontierEmitter(
    {
      linkbase,
      producer: bus.producer(),
      codec,
      jobs: new JobRegistry(parseCrawlJob({})),
      logger: silentLogger(),
      tickMs: 10,
      batchSize: 100,
      perHostPerRound: 2,
      maxInFlight: 100,
      maxInFlightPerHost: 3,
      leaseMs: 1000,
      maxLeaseExpiries: 2,
      selection: {
        classShares: { discovery: 0.5, freshness: 0.3, update: 0.2 },
        levelWeights: [8, 4, 2, 1],
        hostOrder: 'breadth-first',
      },
      now: () => clock,
      ...overrides,
    },
    alreadyHandedOut,
  );
  const cleanup = async () => {
    await consumer.stop();
    await bus.close();
    await linkbase.close();
    rmSync(dir, { recursive: true, force: true });
  };
  // Everything handed out so far has reached the probe: as many received as the frontier topic holds.
  const flush = () =>
    waitFor(
      async () =>
        (await bus.lag('probe', [Topics.frontier])).reduce((sum, partition) => sum + partition.end, 0) === sent.length,
      10_000,
      5,
      'the probe to receive every request handed out',
    );
  return { linkbase, emitter, sent, headers, cleanup, flush, tick: (ms: number) => (clock += ms) };
}

describe('FrontierEmitter', () => {
  let cleanup: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await cleanup?.();
    cleanup = null;
  });

  it('hands out due URLs breadth-first per host, capped per round and per host in flight', async () => {
    const ctx = await setup();
    cleanup = ctx.cleanup;
    await ctx.linkbase.insertNew([
      ...[3, 1, 2, 0].map((depth) => makeLinkRecord(`http://a.test/d${depth}`, { depth })),
      makeLinkRecord('http://b.test/', { depth: 0 }),
      makeLinkRecord('http://c.test/later', { nextFetchAt: 99_999_999 }),
    ]);
    await ctx.emitter.runRound();
    await ctx.flush();
    expect(ctx.sent.map((request) => new URL(request.url).host + new URL(request.url).pathname).sort()).toEqual([
      'a.test/d0',
      'a.test/d1',
      'b.test/',
    ]);
    await ctx.emitter.runRound();
    await ctx.flush();
    expect(ctx.sent.filter((request) => request.host === 'a.test').map((request) => request.depth)).toEqual([0, 1, 2]);
    ctx.emitter.answered(ctx.sent.find((request) => request.host === 'a.test')!.urlId);
    await ctx.emitter.runRound();
    await ctx.flush();
    expect(ctx.sent.filter((request) => request.host === 'a.test').map((request) => request.depth)).toEqual([
      0, 1, 2, 3,
    ]);
    expect(ctx.sent.every((request) => request.leaseUntil === 11_000)).toBe(true);
    // Each URL starts a W3C trace, even with tracing off: its id is the request's and the header's.
    ctx.sent.forEach((request, i) => {
      expect(request.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(ctx.headers[i]!.traceparent).toMatch(new RegExp(`^00-${request.traceId}-[0-9a-f]{16}-01$`));
      expect(ctx.headers[i]![TRACE_HEADER]).toBe(request.traceId);
    });
    expect(new Set(ctx.sent.map((request) => request.traceId)).size).toBe(ctx.sent.length);
  });

  it('re-sends a URL whose lease ran out, and fails it after too many lost leases', async () => {
    const ctx = await setup({ perHostPerRound: 5 });
    cleanup = ctx.cleanup;
    const record = makeLinkRecord('http://a.test/poison');
    await ctx.linkbase.insertNew([record]);
    for (let i = 0; i < 5; i++) {
      await ctx.emitter.runRound();
      ctx.tick(1001);
    }
    await ctx.flush();
    expect(ctx.sent.filter((request) => request.urlId === record.id)).toHaveLength(3);
    expect((await ctx.linkbase.getMany([record.id])).get(record.id)).toMatchObject({
      status: 'error',
      errorCode: 'LEASE_EXPIRED',
    });
    expect(ctx.emitter.poisoned).toBe(1);
  });

  it('stops handing out new URLs when the page budget is spent', async () => {
    const ctx = await setup({
      jobs: new JobRegistry(parseCrawlJob({ maxPages: 2 })),
      perHostPerRound: 10,
      maxInFlightPerHost: 10,
    });
    cleanup = ctx.cleanup;
    await ctx.linkbase.insertNew([0, 1, 2, 3].map((i) => makeLinkRecord(`http://a.test/${i}`)));
    await ctx.emitter.runRound();
    await ctx.emitter.runRound();
    await ctx.flush();
    expect(ctx.sent).toHaveLength(2);
    expect(ctx.emitter.budgetSpent).toBe(true);
  });

  it('counts page budgets per job, including what earlier runs handed out', async () => {
    const jobs = new JobRegistry(parseCrawlJob({ id: 'main', maxPages: 3 }));
    jobs.add(parseCrawlJob({ id: 'side', maxPages: 1 }));
    const ctx = await setup({ jobs, perHostPerRound: 10, maxInFlightPerHost: 10 }, { main: 2 });
    cleanup = ctx.cleanup;
    await ctx.linkbase.insertNew([
      ...[0, 1, 2].map((i) => makeLinkRecord(`http://a.test/main${i}`, { jobId: 'main' })),
      ...[0, 1, 2].map((i) => makeLinkRecord(`http://b.test/side${i}`, { jobId: 'side' })),
    ]);
    await ctx.emitter.runRound();
    await ctx.flush();
    expect(ctx.sent.map((request) => request.jobId).sort()).toEqual(['main', 'side']);
  });

  it('leaves paused hosts and jobs alone', async () => {
    const paused = { queues: ['a.test'], jobs: ['quiet'] };
    const ctx = await setup({ exclude: () => paused });
    cleanup = ctx.cleanup;
    await ctx.linkbase.insertNew([
      makeLinkRecord('http://a.test/'),
      makeLinkRecord('http://b.test/'),
      makeLinkRecord('http://c.test/', { jobId: 'quiet' }),
    ]);
    await ctx.emitter.runRound();
    await ctx.flush();
    expect(ctx.sent.map((request) => request.host)).toEqual(['b.test']);
  });

  it('applies politeness overrides: fewer in flight, and a minimum time between two URLs of a host', async () => {
    const job = parseCrawlJob({
      politeness: [
        { hosts: ['slow.test'], minDelayMs: 5000 },
        { hosts: ['narrow.test'], maxInFlight: 2 },
      ],
    });
    const ctx = await setup({
      jobs: new JobRegistry(job),
      perHostPerRound: 10,
      maxInFlightPerHost: 10,
      leaseMs: 60_000,
    });
    cleanup = ctx.cleanup;
    await ctx.linkbase.insertNew([
      ...[0, 1, 2].map((i) => makeLinkRecord(`http://slow.test/${i}`)),
      ...[0, 1, 2, 3].map((i) => makeLinkRecord(`http://narrow.test/${i}`)),
    ]);
    await ctx.emitter.runRound();
    ctx.tick(1000);
    await ctx.emitter.runRound();
    await ctx.flush();
    const count = (host: string) => ctx.sent.filter((request) => request.host === host).length;
    expect([count('slow.test'), count('narrow.test')]).toEqual([1, 2]);
    ctx.tick(4000);
    await ctx.emitter.runRound();
    await ctx.flush();
    expect(count('slow.test')).toBe(2);
  });
});
