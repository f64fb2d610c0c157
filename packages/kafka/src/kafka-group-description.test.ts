import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { readProgress } from './kafka-group-description.js';

/**
 * A partition of a running crawl: every admin request is answered from the state at the moment the
 * broker serves it, and the crawl moves on (10 messages produced, 10 committed) between any two.
 */
function movingPartition() {
  const state = { end: 100, committed: 95 };
  const served = () => {
    const seen = { ...state };
    state.end += 10;
    state.committed += 10;
    return seen;
  };
  const admin = {
    fetchOffsets: async () => {
      // The group coordinator answers later than the partition leader: the crawl has moved on by then.
      await new Promise((resolve) => setImmediate(resolve));
      const { committed } = served();
      return [
        { topic: 't', partitions: [{ partition: 0, offset: String(committed), metadata: '{"at":5,"by":"h/1"}' }] },
      ];
    },
    fetchTopicOffsets: async () => {
      const { end } = served();
      return [{ partition: 0, offset: String(end), high: String(end), low: '0' }];
    },
  };
  return admin as unknown as Admin;
}

describe('readProgress', () => {
  it('reads the commits before the log ends, so a crawl moving on between the two never shows negative lag', async () => {
    const [progress] = await readProgress(movingPartition(), 'g', ['t']);
    // Commit read at 95 (end 100 then); the end read afterwards, after the crawl moved on: 110.
    expect(progress).toMatchObject({ committed: 95, end: 110, lag: 15, committedAt: 5, committedBy: 'h/1' });
  });
});
