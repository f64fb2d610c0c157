import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Tests wait on an event or a bounded condition (packages/core/src/testing/wait-for.ts), never on a
 * sleep sized for a fast machine. A fixed pause stays only where a comment right above it (or on its
 * line) says which of the two kinds it is: a window proving something does NOT happen, or work a
 * handler simulates.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const MARKERS = /\/\/.*\b(negative window|simulated work): \S/;
// The one owner of the polling interval, and this file, whose samples are sleeps on purpose.
const EXEMPT = new Set(['packages/core/src/testing/wait-for.ts', 'test/deploy/no-fixed-sleeps.test.ts']);

/** A promise resolved by a timer, a sleep() call, or the promise form of setTimeout. */
function isFixedSleep(line: string): boolean {
  if (/^\s*(\/\/|\/?\*)/.test(line)) return false;
  if (/setTimeout\(\s*(r|res|resolve|done)\s*,/.test(line)) return !/\bconst sleep\s*=/.test(line);
  if (/(^|[^.\w])sleep\(/.test(line)) return !/function sleep\(/.test(line);
  return /['"](node:)?timers\/promises['"]/.test(line);
}

/** `line: text` of every fixed sleep without a marker on its line or in the comment lines just above it. */
function unmarkedSleeps(source: string): string[] {
  const lines = source.split('\n');
  const found: string[] = [];
  lines.forEach((line, i) => {
    if (!isFixedSleep(line) || MARKERS.test(line)) return;
    for (let above = i - 1; above >= 0 && /^\s*\/\//.test(lines[above]!); above--)
      if (MARKERS.test(lines[above]!)) return;
    found.push(`${i + 1}: ${line.trim()}`);
  });
  return found;
}

/** Test files, and the shared contracts in packages' testing folders, which are test bodies too. */
function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    const isTest = entry.name.endsWith('.test.ts') || (/\/src\/testing\//.test(path) && entry.name.endsWith('.ts'));
    return isTest && !EXEMPT.has(path) ? [path] : [];
  });
}

describe('no fixed sleeps in tests', () => {
  it('finds a bare sleep and accepts one marked as a negative window or simulated work', () => {
    const source = [
      'await new Promise((resolve) => setTimeout(resolve, 500));',
      '// negative window: nothing may be committed in it; holds however slow the machine.',
      'await new Promise((resolve) => setTimeout(resolve, 500));',
      'await sleep(20); // simulated work: a slow handler',
      '  await sleep(800);',
      "import { setTimeout as delay } from 'node:timers/promises';",
      'const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));',
      'const timer = setTimeout(() => child.kill(), 1000);',
    ].join('\n');
    expect(unmarkedSleeps(source)).toEqual([
      '1: await new Promise((resolve) => setTimeout(resolve, 500));',
      '5: await sleep(800);',
      "6: import { setTimeout as delay } from 'node:timers/promises';",
    ]);
  });

  it('every test waits on an event or a bounded condition, or says why its pause is fixed', () => {
    const files = ['packages', 'services', 'test', 'bench/src'].flatMap(testFiles);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((path) =>
      unmarkedSleeps(readFileSync(join(root, path), 'utf8')).map((place) => `${path}:${place}`),
    );
    expect(offenders).toEqual([]);
  });
});
