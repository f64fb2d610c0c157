import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));

/**
 * The first fenced block of a language under a heading of a docs page (docs/DATA.md unless
 * named): tests run the examples as printed, so the page cannot drift from what works.
 */
export function docCodeBlock(heading: string, language: string, page = 'DATA.md'): string {
  const text = readFileSync(docs + page, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/${page} has no heading "${heading}"`);
  const match = text.slice(start).match(new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```'));
  if (!match) throw new Error(`no ${language} block under "${heading}" in docs/${page}`);
  return `${match[1]}\n`;
}

/** Every metric name docs/OPERATIONS.md mentions in backticks. */
export function documentedMetrics(): Set<string> {
  return new Set(
    [...readFileSync(docs + 'OPERATIONS.md', 'utf8').matchAll(/`(crawler_[a-z0-9_]+)/g)].map((match) => match[1]!),
  );
}
