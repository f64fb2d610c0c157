import { describe, expect, it } from 'vitest';
import { BackendError } from '../errors.js';
import { silentLogger } from '../log/logger.js';
import type { Bus, GroupDescription, PartitionLag } from '../ports/bus.js';
import { registerGroupMetrics } from './group-metrics.js';
import { createMetricsRegistry } from './metrics-registry.js';
import { readSamples, sampleValue } from './prometheus-text.js';

const minute = 60_000;

function busWith(
  describe: ((group: string) => Promise<GroupDescription>) | null,
  lag: (group: string) => Promise<PartitionLag[]> = async () => [],
): Bus & { calls: number } {
  const bus = {
    calls: 0,
    createTopics: async () => undefined,
    producer: () => {
      throw new Error('not used');
    },
    consumer: () => {
      throw new Error('not used');
    },
    lag: (group: string) => lag(group),
    close: async () => undefined,
  };
  if (!describe) return bus as unknown as Bus & { calls: number };
  return Object.assign(bus, {
    describeGroup: (group: string) => {
      bus.calls++;
      return describe(group);
    },
  }) as unknown as Bus & { calls: number };
}

describe('group metrics', () => {
  it('exports lag per group, topic and partition and each worker with its partitions, progress and stall', async () => {
    let now = 1_000 * minute;
    const fetcher: GroupDescription = {
      groupId: 'fetcher',
      state: 'Stable',
      members: [
        {
          memberId: 'a',
          clientId: 'crawler-fetcher',
          host: '10.0.0.1',
          instance: 'host-a/11',
          partitions: [{ topic: 'crawl.frontier', partition: 0 }],
        },
        {
          memberId: 'b',
          clientId: 'crawler-fetcher',
          host: '10.0.0.2',
          instance: 'host-b/12',
          partitions: [{ topic: 'crawl.frontier', partition: 1 }],
        },
      ],
      partitions: [
        {
          topic: 'crawl.frontier',
          partition: 0,
          committed: 90,
          end: 100,
          lag: 10,
          committedAt: now - 20 * minute,
          committedBy: 'host-a/11',
        },
        {
          topic: 'crawl.frontier',
          partition: 1,
          committed: 7,
          end: 9,
          lag: 2,
          committedAt: now - 5_000,
          committedBy: 'host-b/12',
        },
      ],
    };
    const dedup: GroupDescription = {
      groupId: 'dedup',
      state: 'Empty',
      members: [],
      partitions: [{ topic: 'crawl.parsed', partition: 0, committed: -1, end: 4, lag: 4, committedAt: null }],
    };
    const bus = busWith(async (group) => (group === 'fetcher' ? fetcher : dedup));
    const registry = createMetricsRegistry('scheduler', { processMetrics: false });
    registerGroupMetrics(registry, {
      bus,
      groups: [
        { group: 'fetcher', topics: ['crawl.frontier'] },
        { group: 'dedup', topics: ['crawl.parsed'] },
      ],
      logger: silentLogger(),
      now: () => now,
    });
    const text = await registry.metrics();
    expect(
      sampleValue(text, 'crawler_consumer_lag', {
        group: 'fetcher',
        topic: 'crawl.frontier',
        partition: '0',
        service: 'scheduler',
      }),
    ).toBe(10);
    expect(sampleValue(text, 'crawler_consumer_committed_offset', { group: 'dedup', partition: '0' })).toBe(-1);
    expect(sampleValue(text, 'crawler_consumer_log_end_offset', { group: 'fetcher', partition: '1' })).toBe(9);
    expect(
      sampleValue(text, 'crawler_consumer_last_commit_timestamp_seconds', { group: 'fetcher', partition: '1' }),
    ).toBe((now - 5_000) / 1000);
    expect(sampleValue(text, 'crawler_consumer_last_commit_timestamp_seconds', { group: 'dedup' })).toBeUndefined();
    expect(sampleValue(text, 'crawler_group_members', { group: 'fetcher' })).toBe(2);
    expect(sampleValue(text, 'crawler_group_members', { group: 'dedup' })).toBe(0);
    expect(sampleValue(text, 'crawler_worker_partitions', { group: 'fetcher', worker: 'host-a/11', member: 'a' })).toBe(
      1,
    );
    expect(sampleValue(text, 'crawler_worker_pending_messages', { worker: 'host-b/12' })).toBe(2);
    expect(sampleValue(text, 'crawler_worker_stalled', { worker: 'host-a/11' })).toBe(1);
    expect(sampleValue(text, 'crawler_worker_stalled', { worker: 'host-b/12' })).toBe(0);
    expect(sampleValue(text, 'crawler_worker_gone')).toBeUndefined();
    // Nine gauges, one read per group for the whole scrape.
    expect(bus.calls).toBe(2);
    now += 10_000;
    fetcher.members.pop();
    const later = await registry.metrics();
    expect(
      readSamples(later)
        .filter((sample) => sample.name === 'crawler_worker_partitions')
        .map((sample) => sample.labels.worker),
    ).toEqual(['host-a/11']);
    // host-b/12 made partition 1's last commit and is no longer in the group: gone.
    expect(sampleValue(later, 'crawler_worker_gone', { group: 'fetcher', worker: 'host-b/12' })).toBe(1);
    expect(sampleValue(later, 'crawler_worker_gone', { worker: 'host-a/11' })).toBeUndefined();
  });

  it('keeps /metrics answering when the cluster fails, counting the failure once per read', async () => {
    const bus = busWith(async () => {
      throw new BackendError('broker down');
    });
    const registry = createMetricsRegistry('fetcher', { processMetrics: false });
    registerGroupMetrics(registry, {
      bus,
      groups: [{ group: 'fetcher', topics: ['crawl.frontier'] }],
      logger: silentLogger(),
    });
    const text = await registry.metrics();
    expect(sampleValue(text, 'crawler_group_read_errors_total', { code: 'BACKEND_UNAVAILABLE' })).toBe(1);
    expect(sampleValue(text, 'crawler_consumer_lag')).toBeUndefined();
  });

  it('falls back to lag alone on a bus that cannot describe groups', async () => {
    const bus = busWith(null, async () => [{ topic: 'crawl.status', partition: 3, committed: 1, end: 6, lag: 5 }]);
    const registry = createMetricsRegistry('scheduler', { processMetrics: false });
    registerGroupMetrics(registry, {
      bus,
      groups: [{ group: 'scheduler.status', topics: ['crawl.status'] }],
      logger: silentLogger(),
    });
    const text = await registry.metrics();
    expect(sampleValue(text, 'crawler_consumer_lag', { group: 'scheduler.status', partition: '3' })).toBe(5);
    expect(sampleValue(text, 'crawler_worker_partitions')).toBeUndefined();
  });
});
