import { describe, expect, it } from 'vitest';
import { placeOf, summarizeCpuProfiles, type CpuProfile } from './cpu-profile-summary.js';
import { threadOfProfileFile } from './profile-files.js';

const root = '/repo';
const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

/**
 * root ─┬─ (program) 2 ms
 *       ├─ (garbage collector) 3 ms
 *       ├─ (idle) 50 ms
 *       └─ parsePage (linkextract) 1 ms ─┬─ parse (htmlparser2) 4 ms
 *                                        └─ constructor (node:internal/url) 2 ms
 */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 4, 5] },
    { id: 2, callFrame: frame('(program)') },
    { id: 3, callFrame: frame('(garbage collector)') },
    { id: 4, callFrame: frame('(idle)') },
    {
      id: 5,
      callFrame: frame('parsePage', `file://${root}/services/linkextract/dist/page-parser.js`, 9),
      children: [6, 7],
    },
    { id: 6, callFrame: frame('parse', `file://${root}/node_modules/htmlparser2/dist/esm/Tokenizer.js`, 626) },
    { id: 7, callFrame: frame('constructor', 'node:internal/url', 99) },
  ],
  // A sample lasts until the next one (the delta after it, µs); the last one is idle.
  samples: [2, 3, 4, 5, 6, 7, 4],
  timeDeltas: [0, 2_000, 3_000, 50_000, 1_000, 4_000, 2_000],
};

describe('summarizeCpuProfiles', () => {
  const summary = summarizeCpuProfiles([{ thread: 'main', profile }], { repoRoot: root });
  const shares = (list: { name: string; ms: number }[]) =>
    Object.fromEntries(list.map((entry) => [entry.name, entry.ms]));

  it('keeps idle time apart and counts shares of the busy time', () => {
    expect(summary.threads).toEqual([{ name: 'main', busyMs: 12, idleMs: 50 }]);
    expect(summary.busyMs).toBe(12);
    expect(summary.byArea.reduce((sum, entry) => sum + entry.share, 0)).toBeCloseTo(1);
  });

  it('counts self time by area: our package, the npm package, Node.js core and the engine apart', () => {
    expect(shares(summary.byArea)).toEqual({
      'npm htmlparser2': 4,
      'garbage collection': 3,
      'V8 and native code (no JavaScript frame)': 2,
      'Node.js core': 2,
      '@crawler/linkextract': 1,
    });
  });

  it("counts a library's time to the crawler package that called it", () => {
    expect(shares(summary.byCaller)).toEqual({
      '@crawler/linkextract': 7,
      'garbage collection': 3,
      'V8 and native code (no JavaScript frame)': 2,
    });
  });

  it('names functions by file and line, even one called constructor', () => {
    expect(shares(summary.byFunction)).toMatchObject({
      'parse (htmlparser2/dist/esm/Tokenizer.js:627)': 4,
      'constructor (node:internal/url:100)': 2,
      'parsePage (services/linkextract/dist/page-parser.js:10)': 1,
      '(garbage collector)': 3,
    });
  });
});

describe('placeOf', () => {
  it('finds scoped npm packages, workspace packages and scripts without a source', () => {
    expect(placeOf('f', `file://${root}/node_modules/@crawlee/core/x.js`, root)).toEqual({
      area: 'npm @crawlee/core',
      module: '@crawlee/core/x.js',
    });
    expect(placeOf('f', `file://${root}/packages/core/dist/a%20b.js`, `${root}/`)).toEqual({
      area: '@crawler/core',
      module: 'packages/core/dist/a b.js',
    });
    expect(placeOf('RegExp: \\s+', '', root)).toEqual({
      area: 'V8 built-ins (no script)',
      module: 'RegExp: \\s+ (V8 built-in)',
    });
    expect(placeOf('toString', '', root).area).toBe('V8 built-ins (no script)');
  });
});

describe('threadOfProfileFile', () => {
  it("tells the main thread from workers by Node's file name", () => {
    expect(threadOfProfileFile('/tmp/CPU.20261125.150012.4242.0.001.cpuprofile')).toBe('main thread (pid 4242)');
    expect(threadOfProfileFile('CPU.20261125.150012.4242.3.002.cpuprofile')).toBe('worker thread 3 (pid 4242)');
    expect(threadOfProfileFile('mine.cpuprofile')).toBe('mine.cpuprofile');
  });
});
