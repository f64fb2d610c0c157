import { Counter, type Registry } from '@crawler/core';
import type { LinkextractCounters } from './linkextract-stage.js';

/**
 * Every link extraction metric, declared once: pages parsed, links not passed on by reason
 * (docs/URLS.md) and pages flagged by warning (docs/EXTRACTION.md). The stage keeps the counts;
 * they are copied into the registry at each scrape.
 */
export function registerLinkextractMetrics(
  registry: Registry,
  counters: LinkextractCounters,
  pagesParsed: () => number,
): void {
  new Counter({
    name: 'crawler_linkextract_pages_total',
    help: 'Pages parsed.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(pagesParsed());
    },
  });
  const byLabel = (name: string, help: string, label: string, counts: Map<string, number>) =>
    new Counter({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      collect() {
        this.reset();
        for (const [value, count] of counts) this.inc({ [label]: value }, count);
      },
    });
  byLabel('crawler_linkextract_dropped_links_total', 'Links not passed on, by reason.', 'reason', counters.dropped);
  byLabel(
    'crawler_linkextract_flagged_pages_total',
    'Pages flagged, by warning (caps hit, refused input, missing required fields).',
    'warning',
    counters.warnings,
  );
}
