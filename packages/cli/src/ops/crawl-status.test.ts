import {
  Codec,
  Schemas,
  type Bus,
  type GroupDescription,
  type LinkBase,
  type LinkBaseStats,
  type StatusUpdate,
} from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import type { RecentRecords } from '@crawler/kafka';
import { describe, expect, it } from 'vitest';
import { CrawlStatus } from './crawl-status.js';
import { formatStatus } from './status-screen.js';

const NOW = 1_800_000_000_000;
const codec = new Codec();

/** crawl.status of two jobs in the last minute, a link base with both, and a fetcher group whose other member was killed. */
function stack() {
  const statuses: [string, string][] = [
    ['news', 'ok'],
    ['news', 'timeout'],
    ['blogs', 'server_error'],
    ['blogs', 'server_error'],
    ['blogs', 'ok'],
  ];
  const recent = {
    follow: async (
      _topic: string,
      _since: number,
      _max: number,
      onRecord: (record: { value: Buffer; timestamp: number }) => void,
    ) => {
      for (const [jobId, outcome] of statuses) {
        const status: StatusUpdate = { ...sampleMessages[Schemas.StatusUpdate], jobId, outcome };
        onRecord({ value: codec.encode(Schemas.StatusUpdate, status), timestamp: NOW - 1_000 });
      }
      return { caughtUp: Promise.resolve(), stop: async () => undefined };
    },
    countSince: async () => 30,
  } as unknown as RecentRecords;
  const stats = {
    total: 100,
    byStatus: { due: 100 },
    leased: 3,
    byJob: { news: { total: 60, visited: 20 }, blogs: { total: 40, visited: 5 } },
    due: 90,
  } as unknown as LinkBaseStats;
  const linkbase = { stats: async () => stats } as unknown as LinkBase;
  const fetcher = (group: string): GroupDescription => ({
    groupId: group,
    state: 'Stable',
    members:
      group === 'fetcher'
        ? [
            {
              memberId: 'm1',
              clientId: 'c',
              host: 'h',
              instance: 'host-a/1',
              partitions: [{ topic: 'crawl.frontier', partition: 0 }],
            },
          ]
        : [],
    partitions:
      group === 'fetcher'
        ? [
            {
              topic: 'crawl.frontier',
              partition: 0,
              committed: 5,
              end: 9,
              lag: 4,
              committedAt: NOW - 2_000,
              committedBy: 'host-a/1',
            },
            {
              topic: 'crawl.frontier',
              partition: 1,
              committed: 7,
              end: 9,
              lag: 2,
              committedAt: NOW - 40_000,
              committedBy: 'host-b/2',
            },
          ]
        : [],
  });
  const bus = { describeGroup: async (group: string) => fetcher(group), lag: async () => [] } as unknown as Bus;
  return { recent, linkbase, bus };
}

describe('CrawlStatus', () => {
  it("with a job, counts that job's answers and errors and shows its URLs beside the totals", async () => {
    const status = new CrawlStatus({ ...stack(), job: 'blogs', now: () => NOW });
    await status.start();
    const snapshot = await status.snapshot();
    expect(snapshot.job).toEqual({ id: 'blogs', known: 40, visited: 5 });
    expect(snapshot.errors).toMatchObject({ answers: 3, byClass: { server_error: 2 } });
    expect(snapshot.rates.answeredPerSecond).toBe(3 / 60);
    expect(snapshot.linkbase.known).toBe(100);
    expect(formatStatus(snapshot, 'h')).toContain('job         blogs: 40 known · 5 visited');
    const all = new CrawlStatus({ ...stack(), now: () => NOW });
    await all.start();
    const whole = await all.snapshot();
    expect(whole.job).toBeNull();
    expect(whole.errors).toMatchObject({ answers: 5, byClass: { timeout: 1, server_error: 2 } });
  });

  it('shows a worker killed mid-crawl as GONE once Kafka dropped it from the group', async () => {
    const status = new CrawlStatus({ ...stack(), now: () => NOW });
    await status.start();
    const snapshot = await status.snapshot();
    const gone = snapshot.workers.filter((worker) => worker.state === 'gone');
    expect(gone.map((worker) => [worker.groupId, worker.worker, worker.lastProgressAt])).toEqual([
      ['fetcher', 'host-b/2', NOW - 40_000],
    ]);
    expect(formatStatus(snapshot, 'h')).toMatch(/host-b\/2 .* GONE/);
  });
});
