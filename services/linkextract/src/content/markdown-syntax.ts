/**
 * How page text is written as Markdown (CommonMark with GitHub's tables) so that it reads back as
 * the same text: what must be escaped in running text, at the start of a line and in a table cell,
 * and how code spans, code fences and link targets are delimited.
 */

/**
 * Characters that start Markdown inline syntax anywhere in text: backslash, backtick, emphasis,
 * link brackets and raw HTML. An underscore only counts where it may open or close emphasis (not
 * between two letters or digits: `with_query` stays as written), and `&` only before what reads
 * as an entity.
 */
const INLINE_SPECIAL = /[\\`*[\]<]|_|&(?=#?[0-9A-Za-z]+;)/g;
const WORD_CHAR = /[\p{L}\p{N}]/u;

export function escapeText(text: string): string {
  return text.replace(INLINE_SPECIAL, (match, offset: number) => {
    if (match === '_' && WORD_CHAR.test(text[offset - 1] ?? '') && WORD_CHAR.test(text[offset + 1] ?? '')) return match;
    return `\\${match}`;
  });
}

/** What would turn a line into a heading, quote, list item, thematic break or setext underline. */
const BLOCK_START = /^(?:#{1,6}(?:\s|$)|>|[-+=](?:\s|$|[-=]*\s*$)|~~~)/;
const ORDERED_START = /^(\d{1,9})([.)])(?=\s|$)/;

/** Escapes what the start of a line would otherwise make into block syntax. */
export function escapeLineStart(line: string): string {
  if (BLOCK_START.test(line)) return `\\${line}`;
  return line.replace(ORDERED_START, (_match, digits: string, mark: string) => `${digits}\\${mark}`);
}

/** A code span around text that may itself hold backticks: the fence is one longer than its longest run. */
export function codeSpan(text: string): string {
  if (text.length === 0) return '';
  const fence = '`'.repeat(longestRun(text, '`') + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fence for a code block: three backticks, or more than the block's longest run of them. */
export function codeFence(code: string): string {
  return '`'.repeat(Math.max(3, longestRun(code, '`') + 1));
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text[i] === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A link or image target; angle brackets keep parentheses and spaces inside it. */
export function linkTarget(url: string): string {
  return /[()\s]/.test(url) ? `<${url.replace(/[<>\s]/g, encodeURIComponent)}>` : url;
}

/** A table cell holds one line; a pipe would end it. */
export function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
