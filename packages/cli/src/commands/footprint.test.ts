import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FootprintWindow } from '@crawler/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import { FootprintFile } from '../ops/footprint-file.js';
import { mergeWindows, summarizeFootprint } from '../ops/footprint-report.js';
import { capture } from '../test-support/capture-output.js';

const START = Date.UTC(2026, 0, 1, 10, 0);
const window = (fields: Partial<FootprintWindow>): FootprintWindow => ({
  site: 'a.test',
  network: '198.51.100.0/24',
  start: START,
  requests: 0,
  pages: 0,
  attachments: 0,
  firstPageAt: null,
  lastPageAt: null,
  minIntervalMs: null,
  ...fields,
});
const windows = [
  // 31 pages 2 s apart over a minute, and 9 attachments.
  window({
    requests: 40,
    pages: 31,
    attachments: 9,
    firstPageAt: START,
    lastPageAt: START + 60_000,
    minIntervalMs: 1800,
  }),
  window({
    start: START + 600_000,
    requests: 2,
    pages: 2,
    firstPageAt: START + 600_000,
    lastPageAt: START + 900_000,
    minIntervalMs: 300_000,
  }),
  window({ site: 'b.test', requests: 1, pages: 1, firstPageAt: START, lastPageAt: START }),
];

describe('crawler footprint', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('measures each window as a site would: pages per active minute, mean and shortest interval, attachment share', () => {
    const report = summarizeFootprint(windows);
    expect(report.windows[0]).toMatchObject({ pagesPerMinute: 31, meanIntervalMs: 2000, attachmentShare: 0.23 });
    expect(report.windows[1]).toMatchObject({ pagesPerMinute: 0.4, meanIntervalMs: 300_000 });
    expect(report.sites[0]).toEqual({
      site: 'a.test',
      network: '198.51.100.0/24',
      windows: 2,
      requests: 42,
      pages: 33,
      attachments: 9,
      busiestWindowPages: 31,
      peakPagesPerMinute: 31,
      meanIntervalMs: 2000,
      minIntervalMs: 1800,
    });
    expect(report.networks).toEqual([
      { network: '198.51.100.0/24', sites: 2, requests: 43, pages: 34, attachments: 9 },
    ]);
  });

  it('adds up a resumed crawl’s windows with the earlier runs’ and drops those past 48 hours', () => {
    const later = window({
      requests: 2,
      pages: 2,
      firstPageAt: START + 90_000,
      lastPageAt: START + 95_000,
      minIntervalMs: 5000,
    });
    const old = window({ start: START - 49 * 3_600_000, requests: 7, pages: 7 });
    const [first, ...rest] = mergeWindows([old, ...windows, later], START + 1000);
    expect(first).toMatchObject({
      site: 'a.test',
      start: START,
      requests: 42,
      pages: 33,
      firstPageAt: START,
      lastPageAt: START + 95_000,
      minIntervalMs: 1800,
    });
    expect(rest).toHaveLength(2);
  });

  it('reads an embedded crawl’s footprint, one site or all, as tables or JSON', async () => {
    const out = mkdtempSync(join(tmpdir(), 'footprint-'));
    dirs.push(out);
    await FootprintFile.open(out).save(windows, START + 1000);
    let io = capture();
    expect(await runCli(['footprint', '--out', out])).toBe(0);
    expect(io.out()).toContain('198.51.100.0/24      2        43     34            9');
    expect(io.out()).toMatch(/2026-01-01 10:00 {2}a\.test {2}198\.51\.100\.0\/24 +40 +31 +31 +2\.00 +1\.80 +23%/);
    vi.restoreAllMocks();
    io = capture();
    expect(await runCli(['footprint', '--out', out, '--site', 'b.test', '--json'])).toBe(0);
    const report = JSON.parse(io.out()) as ReturnType<typeof summarizeFootprint>;
    expect(report.sites.map((site) => site.site)).toEqual(['b.test']);
  });

  it('says where to look when the folder has no footprint, or the store is the in-process one', async () => {
    const io = capture();
    expect(await runCli(['footprint', '--out', join(tmpdir(), 'no-such-crawl')])).toBe(2);
    expect(io.err()).toContain('no-such-crawl/footprint.json');
    vi.stubEnv('CRAWLER_FINGERPRINTS', 'memory');
    expect(await runCli(['footprint'])).toBe(2);
    expect(io.err()).toContain('--out DIR');
    vi.unstubAllEnvs();
  });
});
