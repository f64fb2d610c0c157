import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeLinkBaseContract, makeLinkRecord } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { FileLinkBase } from './file-linkbase.js';

describeLinkBaseContract('file (embedded)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'linkbase-'));
  let current = await FileLinkBase.open(dir);
  return {
    linkbase: current,
    reopen: async () => {
      await current.close();
      current = await FileLinkBase.open(dir);
      return current;
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('FileLinkBase durability', () => {
  it('gives records written before they carried their partition their partition on open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkbase-'));
    const record = makeLinkRecord('http://legacy.test/', { nextFetchAt: 0 });
    const { partition: _dropped, ...legacy } = record;
    writeFileSync(join(dir, 'linkbase.snapshot.jsonl'), `${JSON.stringify(legacy)}\n`);
    const linkbase = await FileLinkBase.open(dir);
    expect((await linkbase.getMany([record.id])).get(record.id)).toEqual(record);
    const due = await linkbase.findDue({ now: 1, limit: 10, perQueueLimit: 10, partitions: [record.partition] });
    expect(due.map((found) => found.id)).toEqual([record.id]);
    await linkbase.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('releases leases of a previous process and survives a torn journal line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkbase-'));
    const first = await FileLinkBase.open(dir);
    const record = makeLinkRecord('http://a.test/x', { nextFetchAt: 0 });
    await first.insertNew([record]);
    await first.lease([record.id], Date.now() + 3_600_000, Date.now());
    await first.close();
    writeFileSync(
      join(dir, 'linkbase.journal.jsonl'),
      `${readFileSync(join(dir, 'linkbase.journal.jsonl'), 'utf8')}{"id":"torn`,
    );
    const second = await FileLinkBase.open(dir);
    const due = await second.findDue({ now: Date.now(), limit: 10, perQueueLimit: 10 });
    expect(due.map((r) => r.id)).toEqual([record.id]);
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps what is appended after a torn journal line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkbase-'));
    const journal = join(dir, 'linkbase.journal.jsonl');
    const first = await FileLinkBase.open(dir);
    const before = makeLinkRecord('http://a.test/before');
    await first.insertNew([before]);
    await first.close();
    writeFileSync(journal, `${readFileSync(journal, 'utf8')}{"id":"torn`);
    const second = await FileLinkBase.open(dir);
    const after = makeLinkRecord('http://a.test/after');
    await second.insertNew([after]);
    await second.close();
    const third = await FileLinkBase.open(dir);
    expect([...(await third.getMany([before.id, after.id])).keys()].sort()).toEqual([before.id, after.id].sort());
    await third.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has inserts and leases in its journal when they return, before any timed flush', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkbase-'));
    const journal = join(dir, 'linkbase.journal.jsonl');
    const linkbase = await FileLinkBase.open(dir, { flushIntervalMs: 3_600_000 });
    const record = makeLinkRecord('http://a.test/durable', { nextFetchAt: 0 });
    await linkbase.insertNew([record]);
    expect(readFileSync(journal, 'utf8')).toContain(record.url);
    const until = Date.now() + 60_000;
    await linkbase.lease([record.id], until, Date.now());
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    expect((JSON.parse(lines.at(-1)!) as { leaseUntil: number }).leaseUntil).toBe(until);
    await linkbase.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compacts the journal into a snapshot and reloads the same state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkbase-'));
    const linkbase = await FileLinkBase.open(dir, { compactAfterBytes: 2000 });
    const records = Array.from({ length: 50 }, (_, i) => makeLinkRecord(`http://a.test/${i}`, { depth: i }));
    await linkbase.insertNew(records);
    await linkbase.update([records[7]!.id], (r) => ({ ...r, status: 'gone' }));
    await linkbase.close();
    // The inserts (durable at once) were folded into the snapshot; only the later update is journaled.
    const journal = readFileSync(join(dir, 'linkbase.journal.jsonl'), 'utf8').trim().split('\n');
    expect(journal.map((line) => (JSON.parse(line) as { status: string }).status)).toEqual(['gone']);
    const reopened = await FileLinkBase.open(dir);
    expect((await reopened.stats(0)).total).toBe(50);
    expect((await reopened.getMany([records[7]!.id])).get(records[7]!.id)?.status).toBe('gone');
    await reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
