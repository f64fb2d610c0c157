import { escapeControlCharacters, escapeJsonControlCharacters, redactUrl } from '@crawler/core';

/**
 * What the CLI prints comes partly from pages (titles, text, headers, robots.txt lines) and from
 * URLs that may carry credentials. Everything shown goes through here: one value is one inert
 * line (control characters escaped, so a title can neither drive the terminal nor forge a line),
 * and a URL's user:password@ is never printed.
 */
export function shown(text: string): string {
  return escapeControlCharacters(redactUrl(text));
}

/** A report of lines: each element is exactly one line on the terminal, whatever it holds. */
export function textLines(lines: readonly string[]): string {
  return `${lines.map(shown).join('\n')}\n`;
}

/** One JSON line for --json: the same value, with credentials hidden and no raw control character. */
export function jsonLine(value: unknown): string {
  return `${escapeJsonControlCharacters(redactUrl(JSON.stringify(value)))}\n`;
}

/** Markdown as it is, lines and tabs kept (a tab in a code block stays a tab), other control characters escaped. */
export function markdownText(markdown: string): string {
  return `${markdown
    .split('\n')
    .map((line) => line.split('\t').map(shown).join('\t'))
    .join('\n')}\n`;
}
