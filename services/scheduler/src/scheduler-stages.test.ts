import { parseCrawlJob, Schemas } from '@crawler/core';
import type { LinkBase, Outlinks, StageContext } from '@crawler/core';
import { makeLinkRecord, sampleMessages } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { JobRegistry } from './jobs/job-registry.js';
import { createLinksStage, createSchedulerCounters, type SchedulerStageOptions } from './scheduler-stages.js';

/** A link base whose writes take a moment, as a remote one does, so handlers interleave. */
function slowLinkBase() {
  const records = new Map<string, ReturnType<typeof makeLinkRecord>>();
  const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 5));
  const linkbase = {
    insertNew: async (batch) => later(batch.filter((record) => !records.has(record.id) && records.set(record.id, record)).map((record) => record.id)),
    getMany: async (ids) => later(new Map(ids.filter((id) => records.has(id)).map((id) => [id, records.get(id)!]))),
    update: async (ids, mutate) => {
      const out = [];
      for (const id of ids) {
        const next = records.has(id) ? mutate(records.get(id)!) : null;
        if (next) out.push(records.set(id, next).get(id)!);
      }
      return later(out);
    },
  } as LinkBase;
  return { linkbase, records };
}

const options = (linkbase: LinkBase, counters = createSchedulerCounters()): SchedulerStageOptions => ({
  linkbase,
  jobs: new JobRegistry(parseCrawlJob({})),
  policy: { minIntervalMs: 1000, maxIntervalMs: 10_000, targetProbability: 0.5, hubBoost: 3, maxAttempts: 3, retryBaseMs: 1, retryMaxMs: 1 },
  counters,
  leaseMs: 1000,
  maxRedirectHops: 5,
  countInlinks: true,
  random: () => 0.25,
});

describe('links stage', () => {
  it('counts every discovered URL when many messages are handled at once', async () => {
    const counters = createSchedulerCounters();
    const stage = createLinksStage(options(slowLinkBase().linkbase, counters));
    const message = (n: number): Outlinks => ({ ...sampleMessages[Schemas.Outlinks], links: Array.from({ length: 10 }, (_, i) => ({ url: `http://a.test/${n * 10 + i}`, anchor: null, rel: null, source: 'a', lastmod: null, changefreq: null })) });
    await Promise.all(Array.from({ length: 30 }, (_, n) => stage.handle(message(n), {} as StageContext)));
    expect(counters.discovered).toBe(300);
    expect(counters.linksReceived).toBe(300);
  });

  it('values new URLs, counts inlinks and anchors of known ones, and credits the source page with its new URLs', async () => {
    const { linkbase, records } = slowLinkBase();
    const source = makeLinkRecord('http://a.test/', { status: 'fetched', fetchCount: 1 });
    const known = makeLinkRecord('http://a.test/known', { anchors: ['Old'] });
    await linkbase.insertNew([source, known]);
    const stage = createLinksStage(options(linkbase));
    const links = [
      { url: 'http://a.test/known', anchor: 'Known page', rel: null, source: 'a', lastmod: null, changefreq: null },
      { url: 'http://a.test/new', anchor: 'New page', rel: null, source: 'a', lastmod: null, changefreq: null },
      { url: 'http://a.test/', anchor: 'Home', rel: null, source: 'a', lastmod: null, changefreq: null },
    ];
    await stage.handle({ ...sampleMessages[Schemas.Outlinks], kind: 'page', sourceUrl: source.url, sourceUrlId: source.id, depth: 1, links }, {} as StageContext);
    expect(records.get(known.id)).toMatchObject({ inlinks: 1, anchors: ['Old', 'Known page'] });
    expect(records.get(source.id)).toMatchObject({ inlinks: 0, linkYield: 0.3 });
    const fresh = [...records.values()].find((record) => record.url === 'http://a.test/new')!;
    expect(fresh).toMatchObject({ depth: 1, rank: 0.25, trafficClass: 'discovery', anchors: ['New page'] });
    expect(fresh.value).toBeGreaterThan(0);
    expect(fresh.priority).toBe(fresh.value);
  });
});
