import { shown } from '../terminal-text.js';

/** Columns padded to their widest cell; numbers right-aligned. */
export function formatTable(header: string[], rows: (string | number)[][], indent = ''): string {
  // Cells hold link base and dead-letter text: each is shown as one inert line.
  const cells = [header, ...rows.map((row) => row.map((cell) => shown(String(cell))))];
  const numeric = header.map((_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === 'number'));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  return cells
    .map(
      (row) =>
        indent +
        row
          .map((cell, column) => (numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}

/** "4s ago", "3m ago", "2h10m ago"; "never" for null. */
export function formatAge(at: number | null, now: number): string {
  if (at === null) return 'never';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 120) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m ago`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m ago`;
}

/** Partitions as compact ranges: "crawl.frontier 0-3,7". */
export function formatPartitions(partitions: { topic: string; partition: number }[]): string {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of partitions) byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  return [...byTopic]
    .map(([topic, numbers]) => {
      const sorted = [...numbers].sort((a, b) => a - b);
      const ranges: string[] = [];
      for (let i = 0; i < sorted.length; i++) {
        let j = i;
        while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
        ranges.push(j > i ? `${sorted[i]}-${sorted[j]}` : String(sorted[i]));
        i = j;
      }
      return `${topic} ${ranges.join(',')}`;
    })
    .join('; ');
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** A span of time for people: "45s", "12m", "5h 02m", "30d 23h". */
export function formatSpan(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}
