import { formatAge, formatCount, formatPartitions, formatTable } from './format.js';
import type { StatusSnapshot } from './crawl-status.js';

/** The status screen as plain text: the same lines on a terminal (redrawn) and in a pipe. */
export function formatStatus(snapshot: StatusSnapshot, header: string): string {
  const { linkbase, rates, errors, groups, workers, job } = snapshot;
  const list = (entries: [string, number][]) =>
    entries.length === 0 ? 'none' : entries.map(([name, count]) => `${name} ${formatCount(count)}`).join(' · ');
  const rate = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));
  const lines = [
    header,
    '',
    `link base   ${formatCount(linkbase.known)} known · ${linkbase.due === null ? '?' : formatCount(linkbase.due)} due · ${formatCount(linkbase.leased)} leased`,
    `            ${list(Object.entries(linkbase.byStatus).sort((a, b) => b[1] - a[1]))}`,
    ...(job === null
      ? []
      : [
          `job         ${job.id}: ${formatCount(job.known)} known · ${formatCount(job.visited)} visited; its answers and errors below, pages/s, lag and workers of all jobs`,
        ]),
    `throughput  ${rate(rates.fetchedPerSecond)} pages/s fetched · ${rate(rates.storedPerSecond)} stored · ${rate(rates.answeredPerSecond)} URLs answered (last ${rates.windowSeconds}s)`,
    `errors      ${list(Object.entries(errors.byClass))} (last ${errors.windowSeconds}s, of ${formatCount(errors.answers)} answers)`,
    `lag         ${groups.map((group) => `${group.group} ${formatCount(group.lag)}`).join(' · ')}`,
    '',
    'workers',
  ];
  const rows = workers.map((worker) => [
    worker.groupId,
    worker.worker,
    formatPartitions(worker.partitions) || '-',
    worker.pending,
    formatAge(worker.lastProgressAt, snapshot.at),
    worker.state === 'stalled' || worker.state === 'gone' ? worker.state.toUpperCase() : worker.state,
  ]);
  // A group with work waiting and nobody to do it is the first thing to see.
  for (const group of groups)
    if (group.members === 0 && group.lag > 0)
      rows.push([group.group, '(no members)', '-', group.lag, '-', 'NO WORKERS']);
  lines.push(
    rows.length > 0
      ? formatTable(['group', 'worker', 'partitions', 'pending', 'last progress', 'state'], rows, '  ')
      : '  none: no fetcher, extractor or dedup process is in its group',
  );
  return `${lines.join('\n')}\n`;
}
