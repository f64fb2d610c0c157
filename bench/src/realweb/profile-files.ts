import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CpuProfile } from './cpu-profile-summary.js';

/**
 * The thread a `node --cpu-prof` file belongs to, from the name Node gives it
 * (`CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile`; thread 0 is the main thread).
 */
export function threadOfProfileFile(file: string): string {
  const match = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$/.exec(basename(file));
  if (!match) return basename(file);
  return match[2] === '0' ? `main thread (pid ${match[1]})` : `worker thread ${match[2]} (pid ${match[1]})`;
}

/** The profiles named on a command line: files as given, folders by their *.cpuprofile files. */
export function readProfiles(paths: readonly string[]): { thread: string; profile: CpuProfile }[] {
  const files = paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => name.endsWith('.cpuprofile'))
          .sort()
          .map((name) => join(path, name))
      : [path],
  );
  return files.map((file) => ({
    thread: threadOfProfileFile(file),
    profile: JSON.parse(readFileSync(file, 'utf8')) as CpuProfile,
  }));
}
