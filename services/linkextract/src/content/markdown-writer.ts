/** A block container whose lines carry a prefix: a quote's `> `, a list item's marker then its indent. */
type Container = { kind: 'quote' | 'item'; marker: string; used: boolean };

/**
 * Markdown's block layer: blocks separated by blank lines, each line prefixed by the quotes and
 * list items it sits in (a list item's marker on its first line, its indent on the others). Output
 * stops before the first block that would pass `maxChars`, so a capped text ends on a whole block.
 */
export class MarkdownWriter {
  private readonly lines: string[] = [];
  private readonly containers: Container[] = [];
  private length = 0;
  private blankBefore = false;
  /** Set when a block did not fit. */
  capped = false;

  constructor(private readonly maxChars: number) {}

  openQuote(): void {
    this.containers.push({ kind: 'quote', marker: '> ', used: false });
  }

  openItem(marker: string): void {
    this.containers.push({ kind: 'item', marker, used: false });
  }

  close(): void {
    this.containers.pop();
  }

  /** The next block follows without a blank line: the next item of a tight list, a list inside an item. */
  tight(): void {
    this.blankBefore = false;
  }

  /** Directly inside a list item whose marker is written: a list here nests in it. */
  get inItem(): boolean {
    const last = this.containers.at(-1);
    return last?.kind === 'item';
  }

  block(lines: readonly string[]): void {
    if (this.capped || lines.length === 0) return;
    const out: string[] = [];
    if (this.blankBefore && this.lines.length > 0) out.push(this.prefix(true));
    for (const line of lines) out.push(line === '' ? this.prefix(true) : this.prefix(false) + line);
    const added = out.reduce((sum, line) => sum + line.length + 1, 0);
    if (this.length + added > this.maxChars) {
      this.capped = true;
      return;
    }
    this.length += added;
    for (const line of out) this.lines.push(line);
    this.blankBefore = true;
  }

  toString(): string {
    return this.lines.join('\n');
  }

  /** A blank line belongs only to the containers that have begun: the one before a quote is outside it. */
  private prefix(blank: boolean): string {
    let prefix = '';
    for (const container of this.containers) {
      if (blank && !container.used) break;
      if (container.kind === 'quote') prefix += container.marker;
      else prefix += container.used ? ' '.repeat(container.marker.length) : container.marker;
      container.used = true;
    }
    return blank ? prefix.trimEnd() : prefix;
  }
}
