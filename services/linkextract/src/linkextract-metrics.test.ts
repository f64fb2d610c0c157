import { describe, expect, it } from 'vitest';
import { renderLinkextractMetrics } from './linkextract-metrics.js';

describe('link extraction metrics', () => {
  it('renders drops by reason and flags by warning as Prometheus counters', () => {
    const text = renderLinkextractMetrics({ dropped: new Map([['out-of-scope', 3], ['nofollow', 1]]), warnings: new Map([['links-capped', 2]]) }, 7);
    expect(text).toContain('# TYPE crawler_linkextract_dropped_links_total counter\ncrawler_linkextract_dropped_links_total{reason="out-of-scope"} 3\ncrawler_linkextract_dropped_links_total{reason="nofollow"} 1');
    expect(text).toContain('crawler_linkextract_flagged_pages_total{warning="links-capped"} 2');
    expect(text).toContain('crawler_linkextract_pages_total 7');
  });
});
