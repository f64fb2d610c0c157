import { vi } from 'vitest';

/** Collects what a command writes to stdout and stderr (restored by vi.restoreAllMocks). */
export function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  return { out: () => out.join(''), err: () => err.join('') };
}
