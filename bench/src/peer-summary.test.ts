import { describe, expect, it } from 'vitest';
import { summarizePeers, type PeerRound } from './peer-summary.js';

const score = {
  truthPages: 100,
  fetched: 100,
  outside: 0,
  requestedTwice: 0,
  robotsOrigins: 2,
  origins: 2,
  requests: 102,
};
const round = (peer: string, n: number, pagesPerSecond: number, extra: Partial<PeerRound> = {}): PeerRound => ({
  round: n,
  peer,
  pages: 100,
  pagesPerSecond,
  seconds: 100 / pagesPerSecond,
  cpuSecondsPer1000: 1,
  peakRssMb: 100,
  score,
  loadAverage: 1,
  ...extra,
});

describe('summarizePeers', () => {
  it('takes ratios round by round, then their median', () => {
    // Round 2 ran under load: both slowed down, and their ratio stayed put.
    const rounds = [
      round('raw', 1, 1000),
      round('ours', 1, 500),
      round('raw', 2, 400),
      round('ours', 2, 200),
      round('raw', 3, 1000),
      round('ours', 3, 400),
    ];
    const [raw, ours] = summarizePeers(['raw', 'ours'], rounds);
    expect(ours!.ratios.raw).toEqual({ median: 0.5, min: 0.4, max: 0.5, n: 3 });
    expect(raw!.ratios.ours!.median).toBe(2);
    expect(ours!.pagesPerSecond).toEqual({ median: 400, min: 200, max: 500, n: 3 });
  });

  it('pairs only rounds in which both peers ran', () => {
    const [ours] = summarizePeers(
      ['ours', 'slow'],
      [round('ours', 1, 100), round('ours', 2, 100), round('slow', 2, 10)],
    );
    expect(ours!.ratios.slow).toEqual({ median: 10, min: 10, max: 10, n: 1 });
  });

  it('reports correctness from the worst round and skips peers that never ran', () => {
    const rounds = [
      round('ours', 1, 100),
      round('ours', 2, 100, { score: { ...score, fetched: 97, requestedTwice: 3, robotsOrigins: 1 } }),
    ];
    const summaries = summarizePeers(['ours', 'absent'], rounds);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({
      fetchedMin: 97,
      requestedTwiceMax: 3,
      robotsOriginsMin: 1,
      stackCpuSecondsPer1000: null,
    });
  });
});
