import { describe, expect, it } from 'vitest';
import type { PeerSpec } from '../bench-results.js';
import type { PeerRound } from '../peer-summary.js';
import { renderPeers } from './render-peers.js';

const specs: PeerSpec[] = [
  { id: 'raw', label: 'raw', how: 'GETs', robots: 'none' },
  { id: 'embedded', label: 'ours', how: 'one process', robots: 'checked per URL' },
  { id: 'crawlee', label: 'Crawlee', how: 'CheerioCrawler', robots: 'respectRobotsTxtFile' },
];
const score = {
  truthPages: 100,
  fetched: 100,
  outside: 0,
  requestedTwice: 0,
  robotsOrigins: 2,
  origins: 2,
  requests: 102,
};
const round = (peer: string, n: number, pagesPerSecond: number): PeerRound => ({
  round: n,
  peer,
  pages: 100,
  pagesPerSecond,
  seconds: 1,
  cpuSecondsPer1000: 1.234,
  peakRssMb: 300,
  score,
  loadAverage: 2,
});

describe('renderPeers', () => {
  const rounds = [
    round('raw', 1, 10_000),
    round('embedded', 1, 1_000),
    round('crawlee', 1, 250),
    round('raw', 2, 8_000),
    round('embedded', 2, 1_200),
    round('crawlee', 2, 300),
  ];
  const text = renderPeers(specs, rounds);

  it('has one row per peer with a ratio column for each, our row in bold', () => {
    const header = text.split('\n')[0]!;
    expect(header).toContain('÷ raw');
    expect(header).toContain('÷ Crawlee');
    const ours = text.split('\n').find((line) => line.startsWith('| **ours**'))!;
    // Per round: 1000/10000 = 0.1 and 1200/8000 = 0.15; against Crawlee 4 and 4.
    expect(ours).toContain('| 0.13 (0.10–0.15) |');
    expect(ours).toContain('| 4.0 |');
    expect(ours).toContain('| 100 / 100 |');
  });

  it('states the embedded targets and whether they are met', () => {
    expect(text).toContain('at least half the raw limit: **0.13** (not met)');
    expect(text).toContain('at least 10× Crawlee: **4.0** (not met)');
    expect(text).toContain('at least 10× Scrapy: not measured');
  });

  it('says beside each target what the bare-tools floor reaches, when it ran', () => {
    const withFloor = renderPeers(
      [...specs, { id: 'floor', label: 'floor', how: 'bare tools', robots: 'robots-parser' }],
      [...rounds, round('floor', 1, 2_000), round('floor', 2, 2_400)],
    );
    // Floor per round: 2000/10000 = 0.2 and 2400/8000 = 0.3 of raw; 8 and 8 times Crawlee.
    expect(withFloor).toContain('at least half the raw limit: **0.13** (not met; the floor reaches 0.25)');
    expect(withFloor).toContain('at least 10× Crawlee: **4.0** (not met; the floor reaches 8.0)');
    expect(text).not.toContain('the floor reaches');
  });

  it('says how each peer obeys robots.txt', () => {
    expect(text).toContain('- **Crawlee**: CheerioCrawler. Robots: respectRobotsTxtFile.');
  });
});
