import { BLOCK_TAGS } from '@crawler/core/html';
import { isNode, type ContentChild, type ContentNode } from './content-node.js';
import { MarkdownWriter } from './markdown-writer.js';
import { codeFence, codeSpan, escapeLineStart, escapeText, linkTarget } from './markdown-syntax.js';
import { isLayoutTable, tableLines } from './markdown-table.js';
import { collapseWhitespace } from './render-text.js';

export interface MarkdownOptions {
  /** A link's or image's URL made absolute, or null when it cannot be followed (javascript:, unparsable). */
  resolveUrl(href: string): string | null;
  /** Output stops before the first block past this length. */
  maxChars: number;
}

export interface RenderedMarkdown {
  markdown: string;
  /** A block did not fit in maxChars. */
  capped: boolean;
}

/** A cell holds one line: its blocks and line breaks are written as HTML breaks, as GitHub renders them. */
const CELL_BREAK = '<br>';

/** A hard line break inside a paragraph. */
const BREAK = Symbol('break');
type Part = string | typeof BREAK;

/** An inline element waiting for its end: written around its text if no block started in between. */
interface OpenInline {
  node: ContentNode;
  start: number;
  paragraph: number;
  /** `[`…`](url)` for a link, `*` or `**` for emphasis. */
  open: string;
  close: string;
}

interface List {
  ordered: boolean;
  items: number;
}

/** A data table being read: its rows, and the cell taking text. */
interface Table {
  node: ContentNode;
  rows: string[][];
  cell: string[] | null;
  /** The cell element taking text: a cell inside it (tag soup) is a block of it. */
  cellNode: ContentNode | null;
}

const HEADINGS: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const CODE_TAGS: ReadonlySet<string> = new Set(['code', 'kbd', 'samp', 'tt']);
const EMPHASIS: Readonly<Record<string, string>> = { em: '*', i: '*', strong: '**', b: '**' };
/** A permalink's text (Sphinx's ¶ after each heading): the link says nothing the heading does not. */
const PERMALINK_TEXT = /^[¶#§🔗]$/u;

/**
 * The chosen content as Markdown, from the same tree and the same skipped subtrees as the main
 * text, so it holds the same words: headings, paragraphs, lists, quotes, tables (GitHub's form),
 * code blocks (with the language a class names), inline code, emphasis, and links and images with
 * absolute URLs. One iterative walk: deep trees cannot overflow the stack.
 */
export function renderMarkdown(
  roots: readonly ContentNode[],
  skip: (node: ContentNode) => boolean,
  options: MarkdownOptions,
): RenderedMarkdown {
  const writer = new MarkdownWriter(options.maxChars);
  const lists: List[] = [];
  const tables: Table[] = [];
  const inlines: OpenInline[] = [];
  let parts: Part[] = [];
  /** Counts paragraphs written: an inline element spanning a block boundary is left as plain text. */
  let paragraph = 0;
  let heading: { level: number; node: ContentNode } | null = null;

  /** The text gathered since the last block, as lines (hard breaks), whitespace collapsed. */
  const takeLines = (): string[] => {
    const lines: string[] = [];
    let line = '';
    for (const part of parts) {
      if (part === BREAK) {
        lines.push(line);
        line = '';
      } else line += part;
    }
    lines.push(line);
    parts = [];
    paragraph++;
    return lines.map((text) => collapseWhitespace(text)).filter((text) => text !== '');
  };

  /** Ends the running paragraph: into the open table cell, or as a block. A heading gathers all it holds. */
  const flush = () => {
    if (heading || parts.length === 0) return;
    const lines = takeLines();
    const cell = tables.at(-1)?.cell;
    if (cell) {
      if (lines.length > 0) cell.push(lines.join(CELL_BREAK));
    } else if (lines.length > 0) {
      const last = lines.length - 1;
      // A hard break is a backslash at the end of the line.
      writer.block(lines.map((line, i) => escapeLineStart(line) + (i < last ? '\\' : '')));
    }
  };

  const enter = (node: ContentNode): boolean => {
    const tag = node.tag;
    const level = HEADINGS[tag];
    if (level !== undefined && !heading) {
      flush();
      if (!tables.at(-1)?.cell) heading = { level, node };
      return true;
    }
    if (tag === 'pre') {
      flush();
      const code = preText(node, skip);
      if (code.trim() === '') return false;
      const cell = tables.at(-1)?.cell;
      if (cell) cell.push(codeSpan(collapseWhitespace(code.replace(/\s+/g, ' '))));
      else {
        const fence = codeFence(code);
        writer.block([`${fence}${codeLanguage(node)}`, ...code.split('\n'), fence]);
      }
      return false;
    }
    if (CODE_TAGS.has(tag)) {
      const code = collapseWhitespace(preText(node, skip).replace(/\s+/g, ' '));
      if (code !== '') parts.push(codeSpan(code));
      return false;
    }
    switch (tag) {
      case 'br':
        parts.push(heading ? ' ' : BREAK);
        return false;
      case 'img': {
        const url = node.url === null ? null : options.resolveUrl(node.url.trim());
        if (url) parts.push(`![${escapeText(collapseWhitespace(node.alt ?? ''))}](${linkTarget(url)})`);
        return false;
      }
      case 'hr':
        flush();
        if (!tables.at(-1)?.cell) writer.block(['---']);
        return false;
      case 'a': {
        const url = node.url === null ? null : options.resolveUrl(node.url.trim());
        if (url) inlines.push({ node, start: parts.length, paragraph, open: '[', close: `](${linkTarget(url)})` });
        return true;
      }
      case 'ul':
      case 'ol':
        flush();
        if (tables.at(-1)?.cell) return true;
        // A list directly in an item nests in it, without a blank line between.
        if (writer.inItem) writer.tight();
        lists.push({ ordered: tag === 'ol', items: 0 });
        return true;
      case 'li': {
        flush();
        if (tables.at(-1)?.cell) return true;
        const list = lists.at(-1);
        const items = list ? ++list.items : 1;
        if (items > 1) writer.tight();
        writer.openItem(list?.ordered ? `${items}. ` : '- ');
        return true;
      }
      case 'blockquote':
        flush();
        if (!tables.at(-1)?.cell) writer.openQuote();
        return true;
      case 'table':
        flush();
        if (!isLayoutTable(node, skip)) tables.push({ node, rows: [], cell: null, cellNode: null });
        return true;
      case 'tr':
        if (!tables.at(-1)?.cell && inDataTable(node)) {
          tables.at(-1)!.rows.push([]);
          return true;
        }
        break;
      case 'td':
      case 'th': {
        const table = tables.at(-1);
        if (table && !table.cell && inDataTable(node)) {
          flush();
          if (table.rows.length === 0) table.rows.push([]);
          table.cell = [];
          table.cellNode = node;
          return true;
        }
        break;
      }
    }
    // A heading is emphasis enough.
    const emphasis = heading ? undefined : EMPHASIS[tag];
    if (emphasis) inlines.push({ node, start: parts.length, paragraph, open: emphasis, close: emphasis });
    else if (BLOCK_TAGS.has(tag)) flush();
    return true;
  };

  const exit = (node: ContentNode) => {
    const tag = node.tag;
    if (heading?.node === node) {
      heading = null;
      // A closing run of # would be read as the heading's end mark, not its text.
      const text = takeLines()
        .join(' ')
        .replace(/#+$/, (run) => `\\${run}`);
      if (text !== '') writer.block([`${'#'.repeat(HEADINGS[tag]!)} ${text}`]);
      return;
    }
    const inline = inlines.at(-1);
    if (inline?.node === node) {
      inlines.pop();
      if (inline.paragraph === paragraph) wrapInline(inline);
      return;
    }
    switch (tag) {
      case 'ul':
      case 'ol':
        flush();
        if (!tables.at(-1)?.cell) lists.pop();
        return;
      case 'li':
        flush();
        if (!tables.at(-1)?.cell) writer.close();
        return;
      case 'blockquote':
        flush();
        if (!tables.at(-1)?.cell) writer.close();
        return;
      case 'td':
      case 'th': {
        const table = tables.at(-1);
        if (table?.cellNode === node) {
          flush();
          table.rows.at(-1)!.push(table.cell!.join(CELL_BREAK));
          table.cell = null;
          table.cellNode = null;
          return;
        }
        break;
      }
      case 'table':
        if (tables.at(-1)?.node === node) {
          flush();
          const table = tables.pop()!;
          writer.block(tableLines(table.rows.filter((row) => row.length > 0)));
          return;
        }
        break;
    }
    if (BLOCK_TAGS.has(tag)) flush();
  };

  /** Writes the element's syntax around what it gathered (whitespace kept outside), or nothing if it gathered none. */
  const wrapInline = (inline: OpenInline) => {
    const inner = parts.splice(inline.start).map((part) => (part === BREAK ? ' ' : part));
    const text = inner.join('');
    const trimmed = text.trim();
    if (trimmed === '') {
      parts.push(text);
      return;
    }
    if (inline.open === '[' && PERMALINK_TEXT.test(trimmed)) return;
    const before = text.slice(0, text.length - text.trimStart().length);
    const after = text.slice(text.trimEnd().length);
    // `<b>Game D</b><b>ay</b>` is one bold run: `**Game D****ay**` would not read as one.
    const previous = lastEmphasis;
    lastEmphasis = null;
    if (
      inline.open !== '[' &&
      before === '' &&
      previous?.index === inline.start - 1 &&
      previous.marker === inline.open &&
      previous.paragraph === paragraph
    ) {
      const joined = parts[previous.index] as string;
      parts[previous.index] = joined.slice(0, joined.length - inline.close.length);
      parts.push(`${trimmed}${inline.close}${after}`);
    } else parts.push(`${before}${inline.open}${trimmed}${inline.close}${after}`);
    if (inline.open !== '[' && after === '') lastEmphasis = { index: parts.length - 1, marker: inline.open, paragraph };
  };
  /** The emphasis written last, while nothing follows it: one of the same kind right after joins it. */
  let lastEmphasis: { index: number; marker: string; paragraph: number } | null = null;

  /** A row or cell of the data table being read (not of a layout table, nor of one inside a cell). */
  const inDataTable = (node: ContentNode): boolean => {
    const table = tables.at(-1);
    return table !== undefined && nearestTable(node) === table.node;
  };

  // The parser hands text over in pieces (an entity is a piece of its own): a run is escaped whole,
  // so `&amp;` followed by `amp;` is seen as the entity it would read as.
  let pendingText = '';
  const takeText = () => {
    if (pendingText === '') return;
    parts.push(escapeText(pendingText.replace(LINE_BREAKS, ' ')));
    pendingText = '';
  };

  const stack: ContentChild[] = [];
  const exits: boolean[] = [];
  for (let i = roots.length - 1; i >= 0; i--) {
    stack.push(roots[i]!);
    exits.push(false);
  }
  while (stack.length > 0 && !writer.capped) {
    const item = stack.pop()!;
    const exiting = exits.pop()!;
    if (typeof item === 'string') {
      pendingText += item;
      continue;
    }
    takeText();
    if (exiting) {
      exit(item);
      continue;
    }
    if (skip(item) || !enter(item)) continue;
    stack.push(item);
    exits.push(true);
    for (let i = item.children.length - 1; i >= 0; i--) {
      stack.push(item.children[i]!);
      exits.push(false);
    }
  }
  takeText();
  flush();
  return { markdown: writer.toString(), capped: writer.capped };
}

const LINE_BREAKS = /[\r\n]+/g;

function nearestTable(node: ContentNode): ContentNode | null {
  for (let current = node.parent; current; current = current.parent) if (current.tag === 'table') return current;
  return null;
}

/** The text of a code element as written: line breaks kept, `<br>` as one, skipped parts left out. */
function preText(root: ContentNode, skip: (node: ContentNode) => boolean): string {
  const out: string[] = [];
  const stack: ContentChild[] = [...root.children].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') out.push(item);
    else if (item.tag === 'br') out.push('\n');
    else if (!skip(item)) for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]!);
  }
  // The parser keeps the newline right after <pre>, which HTML drops; a last newline ends the block, it is not a line.
  return out.join('').replace(/\r\n?/g, '\n').replace(/^\n/, '').replace(/\s+$/, '');
}

const LANGUAGE = /(?:^|\s)(?:language|lang|highlight)-([a-z0-9][\w+#.-]*)/;

/** The language a class names on the block, its code element or its wrappers (Sphinx: `highlight-python3`). */
function codeLanguage(pre: ContentNode): string {
  const candidates = [pre, pre.children.find(isNode), pre.parent, pre.parent?.parent];
  for (const node of candidates) {
    if (!node || typeof node === 'string') continue;
    const language = LANGUAGE.exec(node.signature)?.[1];
    if (language && language !== 'default' && language !== 'none') return language;
  }
  return '';
}
