import type { CpuProfileSummary, CpuShare } from '../realweb/cpu-profile-summary.js';
import { formatCount, markdownTable } from './format.js';

/** Rows under this share of the busy time are summed into one line. */
const SMALL = 0.01;

/** Shares in descending order as a table; with `collapseSmall`, those under 1 % become one line. */
function shareTable(title: string, shares: readonly CpuShare[], busyMs: number, collapseSmall = true): string {
  const shown = collapseSmall ? shares.filter((share) => share.share >= SMALL) : shares;
  const row = (name: string, ms: number) => [name, formatCount(ms), `${((ms / busyMs) * 100).toFixed(1)} %`];
  const rows = shown.map((share) => row(share.name, share.ms));
  const rest = shares.slice(shown.length);
  if (rest.length > 0)
    rows.push(
      row(
        `${rest.length} more, each under 1 %`,
        rest.reduce((sum, share) => sum + share.ms, 0),
      ),
    );
  return markdownTable([title, 'ms', 'share'], rows);
}

/** A profile summary as markdown: by calling package, by area, and the functions with the most self time. */
export function renderCpuProfile(summary: CpuProfileSummary): string {
  const threads = summary.threads
    .map((thread) => `${thread.name}: ${formatCount(thread.busyMs)} ms busy, ${formatCount(thread.idleMs)} ms idle`)
    .join('; ');
  return [
    `Sampled ${threads}. Shares are of the busy samples.`,
    '',
    'By the crawler package nearest on the stack (the time of the libraries and Node.js code a package calls is counted to it; what no crawler frame called, such as garbage collection or socket callbacks, keeps its own name):',
    '',
    shareTable('caller', summary.byCaller, summary.busyMs),
    '',
    'Self time by area (the package or engine part where the samples fell):',
    '',
    shareTable('area', summary.byArea, summary.busyMs),
    '',
    `The ${summary.byModule.length} modules (files) with the most self time:`,
    '',
    shareTable('module', summary.byModule, summary.busyMs, false),
    '',
    `The ${summary.byFunction.length} functions with the most self time:`,
    '',
    shareTable('function (file:line)', summary.byFunction, summary.busyMs, false),
  ].join('\n');
}
