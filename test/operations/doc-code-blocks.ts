import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const operationsDoc = fileURLToPath(new URL('../../docs/OPERATIONS.md', import.meta.url));

/**
 * The first fenced block of a language under a heading of docs/OPERATIONS.md: tests run the
 * examples as printed, so the page cannot drift from what works.
 */
export function docCodeBlock(heading: string, language: string): string {
  const text = readFileSync(operationsDoc, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/OPERATIONS.md has no heading "${heading}"`);
  const match = text.slice(start).match(new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```'));
  if (!match) throw new Error(`no ${language} block under "${heading}" in docs/OPERATIONS.md`);
  return `${match[1]}\n`;
}

/** Every metric name the page mentions in backticks. */
export function documentedMetrics(): Set<string> {
  return new Set([...readFileSync(operationsDoc, 'utf8').matchAll(/`(crawler_[a-z0-9_]+)/g)].map((match) => match[1]!));
}
