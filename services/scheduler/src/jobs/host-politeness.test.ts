import { parseCrawlJob } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { hostPoliteness } from './host-politeness.js';

describe('host politeness overrides', () => {
  it('applies the strictest value of every matching override, across jobs', () => {
    const jobs = [
      parseCrawlJob({ id: 'a', politeness: [{ hosts: ['*.example.org'], maxInFlight: 4, minDelayMs: 1000 }] }),
      parseCrawlJob({
        id: 'b',
        politeness: [{ hosts: ['shop.example.org'], maxInFlight: 2, perRound: 5, minDelayMs: 500 }],
      }),
    ];
    expect(hostPoliteness(jobs, 'shop.example.org')).toEqual({ maxInFlight: 2, perRound: 5, minDelayMs: 1000 });
    expect(hostPoliteness(jobs, 'news.example.org')).toEqual({ maxInFlight: 4, minDelayMs: 1000 });
    expect(hostPoliteness(jobs, 'other.test')).toEqual({});
  });
});
