import { BLOCK_TAGS } from '@crawler/core/html';
import { type ContentNode } from './content-node.js';

const BLOCK_END = Symbol('block-end');
const PRE_END = Symbol('pre-end');
type WorkItem = ContentNode | string | typeof BLOCK_END | typeof PRE_END;

/**
 * Flattens elements to text: block elements start new lines, inline ones run together, line
 * breaks in the source become spaces (except inside <pre>), runs of spaces collapse, and one
 * newline separates blocks. `skip` leaves out whole subtrees.
 */
export function renderText(roots: readonly ContentNode[], skip: (node: ContentNode) => boolean = () => false): string {
  const parts: string[] = [];
  const stack: WorkItem[] = [];
  let preDepth = 0;
  for (let i = roots.length - 1; i >= 0; i--) stack.push(roots[i]!);
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item === BLOCK_END) {
      parts.push('\n');
    } else if (item === PRE_END) {
      preDepth--;
    } else if (typeof item === 'string') {
      parts.push(preDepth > 0 ? item : item.replace(LINE_BREAKS, ' '));
    } else if (!skip(item)) {
      if (BLOCK_TAGS.has(item.tag)) {
        parts.push('\n');
        stack.push(BLOCK_END);
      }
      if (item.tag === 'pre') {
        preDepth++;
        stack.push(PRE_END);
      }
      for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]!);
    }
  }
  return collapseWhitespace(parts.join(''));
}

const LINE_BREAKS = /[\r\n]+/g;

/** Anything collapseWhitespace would change; most short strings (anchors, titles) have none. */
const NEEDS_COLLAPSE = /[\t\n\f\r\u00a0\u200b]| {2}|^ | $/;

/**
 * Collapses runs of spaces, keeps one newline between blocks: a space run becomes one space, a
 * newline takes the space before it and all whitespace after it, then the ends are trimmed. A scan
 * of the page's text rather than two regex replaces over it (the same result, a fuzz test holds it).
 */
export function collapseWhitespace(value: string): string {
  if (!NEEDS_COLLAPSE.test(value)) return value;
  const length = value.length;
  let out = '';
  let from = 0;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x0a) {
      let end = i + 1;
      while (end < length && (isSpaceRun(value.charCodeAt(end)) || isJsWhitespace(value.charCodeAt(end)))) end++;
      if (end === i + 1) continue;
      out += `${value.slice(from, i)}\n`;
      from = end;
      i = end - 1;
    } else if (isSpaceRun(code)) {
      let end = i + 1;
      while (end < length && isSpaceRun(value.charCodeAt(end))) end++;
      // A run before a newline goes with it; a lone space stays as it is.
      if (value.charCodeAt(end) === 0x0a) out += value.slice(from, i);
      else if (code === 0x20 && end === i + 1) continue;
      else out += `${value.slice(from, i)} `;
      from = end;
      i = end - 1;
    }
  }
  return (from === 0 ? value : out + value.slice(from)).trim();
}

/** What the first replace folds into one space. */
function isSpaceRun(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0c || code === 0x0d || code === 0xa0 || code === 0x200b;
}

/** JavaScript's \s, as the newline rule swallows it. */
function isJsWhitespace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
