import { describe, expect, it } from 'vitest';
import { OffsetTracker } from './offset-tracker.js';

describe('OffsetTracker', () => {
  it('commits only the lowest contiguous finished offset when work finishes out of order', () => {
    const tracker = new OffsetTracker();
    for (const offset of [10, 11, 12, 13]) tracker.begin('t', 0, offset);
    tracker.finish('t', 0, 12);
    tracker.finish('t', 0, 11);
    expect(tracker.pending()).toEqual([]);
    tracker.finish('t', 0, 10);
    expect(tracker.pending()).toEqual([{ topic: 't', partition: 0, offset: 13 }]);
    tracker.markCommitted(tracker.pending());
    expect(tracker.pending()).toEqual([]);
    tracker.finish('t', 0, 13);
    expect(tracker.pending()).toEqual([{ topic: 't', partition: 0, offset: 14 }]);
    expect(tracker.inFlight()).toBe(0);
  });

  it('keeps partitions independent and forgets revoked ones', () => {
    const tracker = new OffsetTracker();
    tracker.begin('t', 0, 0);
    tracker.begin('t', 1, 5);
    tracker.finish('t', 1, 5);
    expect(tracker.pending()).toEqual([{ topic: 't', partition: 1, offset: 6 }]);
    tracker.drop([{ topic: 't', partition: 0 }]);
    expect(tracker.finish('t', 0, 0)).toBe(false);
    expect(tracker.inFlight()).toBe(0);
  });

  it('handles gaps in offsets (compacted or transactional logs) and long runs', () => {
    const tracker = new OffsetTracker();
    const offsets = Array.from({ length: 5000 }, (_, i) => i * 3);
    for (const offset of offsets) tracker.begin('t', 2, offset);
    for (const offset of [...offsets].reverse()) tracker.finish('t', 2, offset);
    expect(tracker.pending()).toEqual([{ topic: 't', partition: 2, offset: 14998 }]);
  });
});
