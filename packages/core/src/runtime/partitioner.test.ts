import { describe, expect, it } from 'vitest';
import { murmur2, partitionForKey } from './partitioner.js';

describe('murmur2 partitioner', () => {
  it('matches the values of Kafka Utils.murmur2 (Kafka UtilsTest)', () => {
    expect(murmur2(Buffer.from('21'))).toBe(-973932308);
    expect(murmur2(Buffer.from('foobar'))).toBe(-790332482);
    expect(murmur2(Buffer.from('a-little-bit-long-string'))).toBe(-985981536);
    expect(murmur2(Buffer.from('a-little-bit-longer-string'))).toBe(-1486304829);
    expect(murmur2(Buffer.from('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8'))).toBe(-58897971);
    expect(murmur2(Buffer.from('abc'))).toBe(479470107);
  });

  it('maps a key to a stable partition in range', () => {
    const partition = partitionForKey('news.example.test', 12);
    expect(partition).toBeGreaterThanOrEqual(0);
    expect(partition).toBeLessThan(12);
    expect(partitionForKey('news.example.test', 12)).toBe(partition);
  });
});
