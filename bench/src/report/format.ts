import type { Spread } from '../stats.js';

/** 12,345 for rates and counts. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** 0.046, 3.2, 14: two significant digits below 10, whole numbers above. */
export function formatRatio(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value >= 10 ? value.toFixed(0) : value.toPrecision(2);
}

/** "1,020 (814–1,100)": the median with the range of the runs, or the value alone for one run. */
export function formatSpread(spread: Spread, format: (value: number) => string = formatCount): string {
  if (spread.n < 2 || format(spread.min) === format(spread.max)) return format(spread.median);
  return `${format(spread.median)} (${format(spread.min)}–${format(spread.max)})`;
}

export function formatFixed(digits: number): (value: number) => string {
  return (value) => value.toFixed(digits);
}

/** A markdown table from a header row and body rows. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
