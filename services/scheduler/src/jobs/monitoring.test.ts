import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkRecordId, parseCrawlJob, silentLogger } from '@crawler/core';
import { makeLinkRecord } from '@crawler/core/testing';
import { FileLinkBase } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { JobRegistry } from './job-registry.js';
import { monitorRecord, MonitoringSchedules, periodStart } from './monitoring.js';

const HOUR = 3_600_000;

describe('monitoring schedules', () => {
  it('makes a URL due when it was not seen in the current period', () => {
    const now = 10 * HOUR + 5;
    const start = periodStart(now, HOUR);
    const record = makeLinkRecord('http://a.test/', {
      status: 'fetched',
      lastSeenAt: start - 1,
      nextFetchAt: now + 5 * HOUR,
    });
    expect(monitorRecord(record, start, now)).toMatchObject({ nextFetchAt: now, trafficClass: 'freshness', level: 0 });
    expect(monitorRecord({ ...record, lastSeenAt: start + 1 }, start, now)).toBeNull();
    expect(monitorRecord({ ...record, status: 'gone' }, start, now)).toBeNull();
    expect(monitorRecord({ ...record, leaseUntil: now + 1 }, start, now)).toBeNull();
    expect(monitorRecord({ ...record, nextFetchAt: now - 1 }, start, now)).toBeNull();
  });

  it('acts once per period, inserts monitored URLs it does not know, and skips paused jobs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'monitor-'));
    const linkbase = await FileLinkBase.open(dir);
    const job = parseCrawlJob({
      id: 'watch',
      seeds: ['http://a.test/'],
      schedules: [{ every: '1h' }, { every: '1d', urls: ['http://b.test/feed'] }],
    });
    const paused = new Set<string>();
    const schedules = new MonitoringSchedules(new JobRegistry(job), linkbase, silentLogger(), (id) => paused.has(id));
    await linkbase.insertNew([
      makeLinkRecord('http://a.test/', { jobId: 'watch', status: 'fetched', lastSeenAt: 1, nextFetchAt: 100 * HOUR }),
    ]);
    const now = 50 * HOUR + 10;
    expect(await schedules.run(now)).toBe(2);
    const records = await linkbase.getMany([
      linkRecordId('watch', 'http://a.test/'),
      linkRecordId('watch', 'http://b.test/feed'),
    ]);
    expect([...records.values()].map((record) => [record.nextFetchAt, record.trafficClass])).toEqual([
      [now, 'freshness'],
      [now, 'freshness'],
    ]);
    await linkbase.update([linkRecordId('watch', 'http://a.test/')], (record) => ({
      ...record,
      nextFetchAt: 100 * HOUR,
      lastSeenAt: 1,
    }));
    expect(await schedules.run(now + 1000)).toBe(0);
    paused.add('watch');
    expect(await schedules.run(now + HOUR)).toBe(0);
    paused.clear();
    expect(await schedules.run(now + HOUR)).toBe(1);
    await linkbase.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
