import type { LinkextractCounters } from './linkextract-stage.js';

/**
 * Every link extraction metric, declared once, in Prometheus text format: links not passed on
 * by reason (docs/URLS.md) and pages flagged by warning (docs/EXTRACTION.md).
 */
export function renderLinkextractMetrics(counters: LinkextractCounters, pagesParsed: number): string {
  const lines: string[] = [];
  const family = (name: string, help: string, samples: [string, number][]) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
    for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
  };
  family('crawler_linkextract_pages_total', 'Pages parsed.', [['', pagesParsed]]);
  family('crawler_linkextract_dropped_links_total', 'Links not passed on, by reason.', [...counters.dropped].map(([reason, count]) => [`{reason="${reason}"}`, count]));
  family('crawler_linkextract_flagged_pages_total', 'Pages flagged, by warning (caps hit, refused input, missing required fields).', [...counters.warnings].map(([warning, count]) => [`{warning="${warning}"}`, count]));
  return `${lines.join('\n')}\n`;
}
