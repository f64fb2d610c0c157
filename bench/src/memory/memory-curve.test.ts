import { describe, expect, it } from 'vitest';
import { lastThirdGrowth, type MemoryPoint } from './memory-curve.js';

const point = (pages: number, peakRssMb: number): MemoryPoint => ({
  pages,
  seconds: pages / 100,
  rssMb: peakRssMb - 20,
  peakRssMb,
  heapUsedMb: 50,
  externalMb: 10,
});

describe('lastThirdGrowth', () => {
  it('compares the highest RSS of the last third with that of the middle third', () => {
    const points = [point(0, 100), point(30, 300), point(50, 200), point(60, 210), point(80, 220), point(90, 231)];
    // Middle third (33-66]: 210 at most; last third (66-90]: 231.
    expect(lastThirdGrowth(points)).toBeCloseTo(0.1, 5);
  });

  it('is zero or less when the peaks stay level', () => {
    const points = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90].map((pages) => point(pages, pages < 20 ? 150 : 250));
    expect(lastThirdGrowth(points)).toBe(0);
  });
});
