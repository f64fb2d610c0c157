import { readdirSync, readFileSync } from 'node:fs';
import { parseCpuSeconds } from './proc-stats.js';

interface Stat {
  ppid: number;
  /** Own CPU seconds, and those of its children that exited and were waited for. */
  seconds: number;
}

/** Seconds per clock tick, from the shared parser given a stat line of one tick of user time. */
const SECONDS_PER_TICK = parseCpuSeconds('0 (probe) S 0 0 0 0 0 0 0 0 0 0 1 0');

function statOf(pid: string): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14).
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    return { ppid: Number(fields[1]), seconds: ticks * SECONDS_PER_TICK };
  } catch {
    return null;
  }
}

/**
 * CPU seconds of every process descending from this one (Linux /proc), children that already
 * exited included: a browser's renderers come and go with each page, and their time lands in
 * their parent's cutime/cstime once reaped. Subtrees rooted at `exclude` (a test server) are left out.
 */
export function descendantCpuSeconds(exclude: number[] = []): number {
  const stats = new Map<number, Stat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (stat) stats.set(Number(entry), stat);
  }
  const skip = new Set(exclude);
  let total = 0;
  for (const [pid, stat] of stats) {
    let ancestor = stat.ppid;
    let excluded = skip.has(pid);
    while (ancestor > 1 && ancestor !== process.pid && !excluded) {
      excluded = skip.has(ancestor);
      ancestor = stats.get(ancestor)?.ppid ?? 0;
    }
    if (ancestor === process.pid && !excluded) total += stat.seconds;
  }
  return total;
}
