import { describe, expect, it } from 'vitest';
import type { BenchResults } from '../bench-results.js';
import type { BedScore } from '../realweb/bed-client.js';
import type { BedSection } from '../realweb/bed-suite.js';
import { tallyBedScore, type BedRound } from '../realweb/bed-tally.js';
import { renderBed, renderBedSection, worstTally } from './render-bed.js';

const perfect: BedScore = {
  truthPages: 100,
  requests: 104,
  truthPagesRequested: 100,
  notRequested: [],
  requestedTwice: [],
  disallowedRequested: [],
  outsideTruthRequested: [],
  storedTwice: [],
  groupsStoredTwice: [],
  notStored: [],
  duplicates: 0,
  falseDuplicates: [],
  conditionalRequests: 0,
  notModified: 0,
};

const round = (peer: string, n: number, score: BedScore, pagesPerSecond: number): BedRound => ({
  round: n,
  peer,
  pagesPerSecond,
  cpuMsPerPage: 2.5,
  peakRssMb: 100,
  seconds: 4,
  tally: tallyBedScore(score),
  loadAverage: 1,
});

const mistaken: BedScore = {
  ...perfect,
  requests: 140,
  requestedTwice: ['http://h/', 'http://h/a.html', 'http://h/b.html', 'http://h/c.html'],
  notStored: ['http://h/d.html'],
  duplicates: 2,
  falseDuplicates: [{ url: 'http://h/d.html', duplicateOf: 'http://h/e.html' }],
};

const bed: BedSection = {
  truth: { pages: 100, sites: [{ name: 'python', pages: 100 }], disallowedLinks: 5, duplicateGroups: 3 },
  concurrency: 8,
  specs: [
    { id: 'embedded', label: 'this crawler, embedded', how: 'one process', robots: 'its own parser' },
    { id: 'wget', label: 'GNU Wget', how: 'recursive', robots: 'robots=on' },
  ],
  rounds: [
    round('embedded', 1, perfect, 50),
    round('wget', 1, { ...perfect, groupsStoredTwice: [['http://h/', 'http://h/git.html']] }, 300),
    round('embedded', 2, mistaken, 40),
  ],
  profile: null,
};

describe('tallyBedScore', () => {
  it('counts each list and keeps the first three URLs of the non-empty ones', () => {
    const tally = tallyBedScore(mistaken);
    expect(tally).toMatchObject({ requestedTwice: 4, stored: 99, markedDuplicate: 2, falseDuplicates: 1 });
    expect(tally.examples.requestedTwice).toEqual(['http://h/', 'http://h/a.html', 'http://h/b.html']);
    expect(tally.examples.falseDuplicates).toEqual(['http://h/d.html (said to copy http://h/e.html)']);
    expect(Object.keys(tally.examples).sort()).toEqual(['falseDuplicates', 'notStored', 'requestedTwice']);
  });
});

describe('renderBed', () => {
  const text = renderBed(bed, ['embedded']);
  const tables = text.split('\n\n');
  const rowOf = (table: number, start: string) => tables[table]!.split('\n').find((line) => line.startsWith(start))!;

  it("takes each crawler's worst round for the counts: fewest pages, most mistakes", () => {
    const worst = worstTally(bed.rounds.filter((entry) => entry.peer === 'embedded'));
    expect(worst).toMatchObject({ stored: 99, truthPagesRequested: 100, requestedTwice: 4, requests: 140 });
    expect(rowOf(1, '| **this crawler, embedded**')).toBe(
      '| **this crawler, embedded** | 140 | 100 / 100 | 4 | 0 | 0 | 0 | 0 / 3 | 2 | 1 |',
    );
  });

  it('gives speed as the median with the range, wget one request at a time, and the pages kept right', () => {
    expect(rowOf(0, '| **this crawler, embedded**')).toBe(
      '| **this crawler, embedded** | 8 | 45 (40–50) | 2.50 |  | 100 | 4.0 | 99 / 100 |',
    );
    expect(rowOf(0, '| GNU Wget')).toBe('| GNU Wget | 1 | 300 | 2.50 |  | 100 | 4.0 | 100 / 100 |');
    expect(rowOf(1, '| GNU Wget')).toContain('| 1 / 3 |');
  });

  it('lists the URLs behind the mistakes, and describes only the crawlers not described above', () => {
    expect(text).toContain(
      '- this crawler, embedded: requested twice: `http://h/`, `http://h/a.html`, `http://h/b.html`; not stored: `http://h/d.html`;',
    );
    expect(text).toContain('- GNU Wget: duplicate group stored twice: `http://h/ = http://h/git.html`.');
    expect(text).toContain('- **GNU Wget**: recursive. Robots: robots=on.');
    expect(text).not.toContain('- **this crawler, embedded**:');
  });
});

describe('renderBedSection', () => {
  const results = { bed, peers: { specs: [], rounds: [] } } as unknown as BenchResults;

  it("states the bed's truth, the rounds and how each column is measured", () => {
    const text = renderBedSection(results);
    expect(text).toContain('it lists 100 pages (Python 100), 5 linked URLs robots.txt disallows and 3 groups');
    expect(text).toContain('2 rounds in rotated order');
    expect(text).toContain('- **truth pages stored**:');
    expect(text).not.toContain('node --cpu-prof`:');
  });

  it('adds the profile when one was taken', () => {
    const summary = {
      threads: [{ name: 'main thread (pid 1)', busyMs: 1000, idleMs: 10 }],
      busyMs: 1000,
      byCaller: [
        { name: '@crawler/linkextract', ms: 995, share: 0.995 },
        { name: 'garbage collection', ms: 5, share: 0.005 },
      ],
      byArea: [{ name: 'npm htmlparser2', ms: 1000, share: 1 }],
      byModule: [{ name: 'htmlparser2/dist/esm/Tokenizer.js', ms: 1000, share: 1 }],
      byFunction: [{ name: 'parse (htmlparser2/dist/esm/Tokenizer.js:627)', ms: 1000, share: 1 }],
    };
    const text = renderBedSection({ ...results, bed: { ...bed, profile: { cpuSeconds: 12.3, seconds: 20, summary } } });
    expect(text).toContain('12.3 CPU s in the process (/proc, every thread) over a 20.0 s crawl');
    expect(text).toContain('| @crawler/linkextract | 995 | 99.5 % |');
    expect(text).toContain('| 1 more, each under 1 % | 5 | 0.5 % |');
    expect(text).toContain('| htmlparser2/dist/esm/Tokenizer.js | 1,000 | 100.0 % |');
    expect(text).toContain('| parse (htmlparser2/dist/esm/Tokenizer.js:627) | 1,000 | 100.0 % |');
  });
});
