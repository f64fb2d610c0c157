import { describe, expect, it } from 'vitest';
import type { GroupDescription } from '../ports/bus.js';
import { assessWorkers } from './worker-presence.js';

const minute = 60_000;
const now = 100 * minute;

function group(partitions: { lag: number; committedAt: number | null }[], members: number[][]): GroupDescription {
  return {
    groupId: 'fetcher',
    state: 'Stable',
    members: members.map((owned, index) => ({
      memberId: `m${index}`,
      clientId: 'crawler-fetcher',
      host: '10.0.0.1',
      instance: index === 2 ? null : `host-${index}/10${index}`,
      partitions: owned.map((partition) => ({ topic: 'crawl.frontier', partition })),
    })),
    partitions: partitions.map((entry, partition) => ({
      topic: 'crawl.frontier',
      partition,
      committed: 5,
      end: 5 + entry.lag,
      ...entry,
    })),
  };
}

describe('worker presence', () => {
  it('tells working, idle, stalled and unassigned members apart by pending messages and their latest progress', () => {
    const description = group(
      [
        { lag: 10, committedAt: now - 30_000 },
        { lag: 0, committedAt: now - 60 * minute },
        { lag: 0, committedAt: null },
        { lag: 4, committedAt: now - 11 * minute },
        { lag: 7, committedAt: now - 2 * minute },
      ],
      [[0, 1], [2], [3], [], [4]],
    );
    const states = assessWorkers(description, now, 10 * minute);
    expect(states.map((state) => [state.worker, state.state, state.pending, state.lastProgressAt])).toEqual([
      ['host-0/100', 'working', 10, now - 30_000],
      ['host-1/101', 'idle', 0, null],
      ['m2', 'stalled', 4, now - 11 * minute],
      ['host-3/103', 'unassigned', 0, null],
      ['host-4/104', 'working', 7, now - 2 * minute],
    ]);
    expect(assessWorkers(description, now, 15 * minute)[2]!.state).toBe('working');
  });

  it('judges a member that never committed by how long an observer has seen it', () => {
    const description = group([{ lag: 3, committedAt: null }], [[0]]);
    expect(assessWorkers(description, now, 10 * minute)[0]!.state).toBe('working');
    expect(assessWorkers(description, now, 10 * minute, new Map([['m0', now - 5 * minute]]))[0]!.state).toBe('working');
    expect(assessWorkers(description, now, 10 * minute, new Map([['m0', now - 20 * minute]]))[0]!.state).toBe(
      'stalled',
    );
  });

  it('shows a process that left its group as gone while its last commit is recent, and only in a settled group', () => {
    const description = group(
      [
        { lag: 6, committedAt: now - 40_000 },
        { lag: 2, committedAt: now - 5_000 },
        { lag: 0, committedAt: now - 11 * minute },
      ],
      [[0, 1, 2]],
    );
    // Partition 0 was last committed by a killed fetcher, 2 by one that stopped long ago; 1 by the survivor.
    description.partitions[0]!.committedBy = 'host-9/999';
    description.partitions[1]!.committedBy = 'host-0/100';
    description.partitions[2]!.committedBy = 'host-8/888';
    const states = assessWorkers(description, now, 10 * minute);
    expect(states.map((state) => [state.worker, state.state, state.partitions.length, state.lastProgressAt])).toEqual([
      ['host-0/100', 'working', 3, now - 5_000],
      ['host-9/999', 'gone', 1, now - 40_000],
    ]);
    expect(assessWorkers({ ...description, state: 'PreparingRebalance' }, now).map((state) => state.state)).toEqual([
      'working',
    ]);
    expect(assessWorkers({ ...description, state: 'Empty', members: [] }, now).map((state) => state.worker)).toEqual([
      'host-9/999',
      'host-0/100',
    ]);
  });
});
