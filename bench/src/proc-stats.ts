import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (100 on every Linux we run on; asked once). */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/<pid>/stat after the command name, which may contain spaces and parentheses. */
function statFields(statText: string): string[] {
  return statText.slice(statText.lastIndexOf(')') + 2).split(' ');
}

/** User + system CPU seconds of a process from the text of /proc/<pid>/stat. */
export function parseCpuSeconds(statText: string, ticks = ticksPerSecond): number {
  const fields = statFields(statText);
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

/** User + system CPU seconds of a process's children that exited and were waited for (cutime, cstime). */
export function parseReapedChildrenCpuSeconds(statText: string, ticks = ticksPerSecond): number {
  const fields = statFields(statText);
  return (Number(fields[13]) + Number(fields[14])) / ticks;
}

/** A field of /proc/<pid>/status given in kB (VmRSS, VmHWM), in bytes. */
export function parseStatusKb(statusText: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(statusText);
  return match ? Number(match[1]) * 1024 : 0;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export function cpuSecondsOf(pid: number): number | null {
  const text = read(`/proc/${pid}/stat`);
  return text === null ? null : parseCpuSeconds(text);
}

/** CPU seconds of this process's children that exited and were waited for. */
export function reapedChildrenCpuSeconds(): number {
  return parseReapedChildrenCpuSeconds(read('/proc/self/stat') ?? '');
}

export function memoryOf(pid: number): { rss: number; peak: number } | null {
  const text = read(`/proc/${pid}/status`);
  return text === null ? null : { rss: parseStatusKb(text, 'VmRSS'), peak: parseStatusKb(text, 'VmHWM') };
}

/** Socket inodes listening on a TCP port, from the text of /proc/net/tcp or tcp6 (state 0A is LISTEN). */
export function parseListeningInodes(netTcpText: string, port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return netTcpText
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A')
    .map((fields) => fields[9]!);
}

/** The process listening on a local TCP port (a server started elsewhere), or null. */
export function pidListeningOn(port: number): number | null {
  const inodes = new Set(
    ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((path) => parseListeningInodes(read(path) ?? '', port)),
  );
  if (inodes.size === 0) return null;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match && inodes.has(match[1]!)) return Number(pid);
      } catch {
        // The descriptor closed meanwhile.
      }
    }
  }
  return null;
}
