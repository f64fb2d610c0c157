import { readFileSync } from 'node:fs';

/** Peak and current resident set of a live process, in bytes, from /proc/<pid>/status (Linux). */
export function processMemory(pid: number): { peakRss: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { peakRss: kib('VmHWM'), rss: kib('VmRSS') };
}

export const MiB = 1024 * 1024;
