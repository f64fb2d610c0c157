import { describe, expect, it } from 'vitest';
import type { BenchResults } from '../bench-results.js';
import { renderPlots } from './render-plots.js';
import { renderReport } from './render-report.js';

const results: BenchResults = {
  startedAt: '2026-11-21T08:00:00.000Z',
  elapsedSeconds: 1200,
  budgetSeconds: 1800,
  machine: {
    cpus: 2,
    cpuModel: 'AMD EPYC',
    memoryGb: 24,
    node: 'v20.20.2',
    os: 'Debian',
    python: '3.11.7',
    versions: { Scrapy: '2.19.0' },
    loadAverageStart: 1,
    loadAverageEnd: 2,
  },
  workload: { hosts: 10, pagesPerHost: 1000, pages: 10_000, concurrency: 50, pageCap: 10_000 },
  peers: { specs: [], rounds: [] },
  bed: null,
  stages: [{ stage: 'SimHash + near-duplicate lookup per page', status: 'gap', note: 'not built yet' }],
  scale: [
    {
      mode: 'embedded',
      knownUrls: 1000,
      pages: 4000,
      pagesPerSecond: 900,
      cpuMsPerPage: 1.1,
      peakRssMb: 300,
      prefillSeconds: 0.1,
      openSeconds: 0.1,
      loadAverage: 2,
    },
  ],
  scaleWorkload: { hosts: 4, pagesPerHost: 1000 },
  skipped: [
    { what: 'scale curve, stack, 1,000,000 known URLs', why: 'needs about 400 s, 100 s of the budget left for it' },
  ],
};

describe('renderReport', () => {
  const plots = Object.keys(renderPlots(results));
  const text = renderReport(results, plots);

  it('states the machine, the load and that absolute figures are machine-dependent', () => {
    expect(text).toContain('2 × AMD EPYC, 24 GB, Debian, Node v20.20.2, Python 3.11.7; Scrapy 2.19.0');
    expect(text).toContain('Load average 1.0 at the start and 2.0 at the end');
    expect(text).toContain('machine-dependent');
  });

  it('keeps gaps and skipped work visible', () => {
    expect(text).toContain('| SimHash + near-duplicate lookup per page | **GAP** |');
    expect(text).toContain('- scale curve, stack, 1,000,000 known URLs: needs about 400 s');
  });

  it('says when the real-web bed did not run', () => {
    expect(text).toContain('### Peers on the real-web bed\n\nNot run (see "Not measured in this run").');
  });

  it('links only the plots that were drawn', () => {
    expect(plots).toEqual(['scale-cpu.svg', 'scale-throughput.svg']);
    expect(text).toContain('![CPU ms per page against known URLs](bench/scale-cpu.svg)');
    expect(text).not.toContain('peers-throughput.svg');
  });
});
