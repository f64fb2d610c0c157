import { isNode, type ContentNode } from './content-node.js';
import { escapeCell } from './markdown-syntax.js';
import { HEADING_TAGS } from './section-heading.js';

/**
 * A table's rows as GitHub Markdown: the first row is the header (Markdown has no table without
 * one), rows shorter than the widest are padded with empty cells.
 */
export function tableLines(rows: readonly (readonly string[])[]): string[] {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  if (width === 0) return [];
  const line = (cells: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, i) => escapeCell(cells[i] ?? '')).join(' | ')} |`;
  return [line(rows[0]!), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)];
}

/** What a Markdown table cell cannot hold: a list, a heading or another table. */
const BLOCKS_NO_CELL_HOLDS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl', 'table', ...HEADING_TAGS]);

/**
 * A table laid out for the page rather than for data: marked presentational, or holding in its
 * cells what a cell of one line cannot (Python's index pages set lists side by side in one). Its
 * cells are read in order as blocks, so their lists and headings keep their form.
 */
export function isLayoutTable(table: ContentNode, skip: (node: ContentNode) => boolean): boolean {
  if (table.role === 'presentation' || table.role === 'none') return true;
  const stack: ContentNode[] = [];
  for (const child of table.children) if (isNode(child)) stack.push(child);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (skip(node)) continue;
    if (BLOCKS_NO_CELL_HOLDS.has(node.tag)) return true;
    for (const child of node.children) if (isNode(child)) stack.push(child);
  }
  return false;
}
