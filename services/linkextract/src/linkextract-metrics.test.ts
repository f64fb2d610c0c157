import { createMetricsRegistry, sampleValue, type DropReason } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { registerLinkextractMetrics } from './linkextract-metrics.js';

describe('link extraction metrics', () => {
  it('exports drops by reason, flags by warning and pages parsed as counters, as they stand at each scrape', async () => {
    const registry = createMetricsRegistry('linkextract', { processMetrics: false });
    const counters = {
      dropped: new Map<DropReason, number>([['out-of-scope' as DropReason, 3]]),
      warnings: new Map([['links-capped', 2]]),
    };
    let pages = 7;
    registerLinkextractMetrics(registry, counters, () => pages);
    let text = await registry.metrics();
    expect(text).toContain('# TYPE crawler_linkextract_dropped_links_total counter');
    expect(sampleValue(text, 'crawler_linkextract_dropped_links_total', { reason: 'out-of-scope' })).toBe(3);
    expect(sampleValue(text, 'crawler_linkextract_flagged_pages_total', { warning: 'links-capped' })).toBe(2);
    expect(sampleValue(text, 'crawler_linkextract_pages_total')).toBe(7);
    counters.dropped.set('out-of-scope' as DropReason, 5);
    pages = 9;
    text = await registry.metrics();
    expect(sampleValue(text, 'crawler_linkextract_dropped_links_total', { reason: 'out-of-scope' })).toBe(5);
    expect(sampleValue(text, 'crawler_linkextract_pages_total')).toBe(9);
  });
});
