import { describe, expect, it } from 'vitest';
import { BackendError } from '../errors.js';
import { silentLogger } from '../log/logger.js';
import type { LinkBase, LinkBaseStats } from '../ports/linkbase.js';
import { registerLinkBaseMetrics } from './linkbase-metrics.js';
import { createMetricsRegistry } from './metrics-registry.js';
import { sampleValue } from './prometheus-text.js';

describe('link base metrics', () => {
  it('exports URLs by status, due and leased from one stats read per scrape, and counts failed reads', async () => {
    let calls = 0;
    let fail = false;
    const linkbase = {
      stats: async (_now: number, options?: { due?: boolean }) => {
        calls++;
        if (fail) throw new BackendError('cluster down');
        return {
          total: 12,
          byStatus: { queued: 5, fetched: 6, error: 1 },
          leased: 3,
          due: options?.due ? 4 : null,
        } as unknown as LinkBaseStats;
      },
    } as unknown as LinkBase;
    let now = 1_000_000;
    const registry = createMetricsRegistry('scheduler', { processMetrics: false });
    registerLinkBaseMetrics(registry, linkbase, silentLogger(), () => now);
    const text = await registry.metrics();
    expect(sampleValue(text, 'crawler_linkbase_urls', { status: 'fetched' })).toBe(6);
    expect(sampleValue(text, 'crawler_linkbase_urls_due')).toBe(4);
    expect(sampleValue(text, 'crawler_linkbase_urls_leased')).toBe(3);
    expect(calls).toBe(1);
    fail = true;
    now += 60_000;
    const failed = await registry.metrics();
    expect(sampleValue(failed, 'crawler_linkbase_read_errors_total', { code: 'BACKEND_UNAVAILABLE' })).toBe(1);
    expect(sampleValue(failed, 'crawler_linkbase_urls', { status: 'fetched' })).toBeUndefined();
  });
});
