import { parseCrawlJob, Schemas } from '@crawler/core';
import type { LinkBase, Outlinks, StageContext } from '@crawler/core';
import { makeLinkRecord, sampleMessages } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { createLinksStage, createSchedulerCounters } from './scheduler-stages.js';

/** A link base whose writes take a moment, as a remote one does, so handlers interleave. */
function slowLinkBase(): LinkBase {
  const records = new Map<string, ReturnType<typeof makeLinkRecord>>();
  const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 5));
  return {
    insertNew: async (batch) => later(batch.filter((record) => !records.has(record.id) && records.set(record.id, record)).map((record) => record.id)),
    getMany: async (ids) => later(new Map(ids.filter((id) => records.has(id)).map((id) => [id, records.get(id)!]))),
  } as LinkBase;
}

describe('links stage', () => {
  it('counts every discovered URL when many messages are handled at once', async () => {
    const counters = createSchedulerCounters();
    const stage = createLinksStage({ linkbase: slowLinkBase(), job: parseCrawlJob({}), policy: { recrawlIntervalMs: 1000, maxAttempts: 3, retryBaseMs: 1, retryMaxMs: 1 }, counters, leaseMs: 1000, maxRedirectHops: 5 });
    const message = (n: number): Outlinks => ({ ...sampleMessages[Schemas.Outlinks], links: Array.from({ length: 10 }, (_, i) => ({ url: `http://a.test/${n * 10 + i}`, anchor: null, rel: null, source: 'a' })) });
    await Promise.all(Array.from({ length: 30 }, (_, n) => stage.handle(message(n), {} as StageContext)));
    expect(counters.discovered).toBe(300);
    expect(counters.linksReceived).toBe(300);
  });
});
