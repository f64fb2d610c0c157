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

  it('compacts the journal into a snapshot and reloads the same state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkbase-'));
    const linkbase = await FileLinkBase.open(dir, { compactAfterBytes: 2000 });
    const records = Array.from({ length: 50 }, (_, i) => makeLinkRecord(`http://a.test/${i}`, { depth: i }));
    await linkbase.insertNew(records);
    await linkbase.update([records[7]!.id], (r) => ({ ...r, status: 'gone' }));
    await linkbase.close();
    expect(readFileSync(join(dir, 'linkbase.journal.jsonl'), 'utf8')).toBe('');
    const reopened = await FileLinkBase.open(dir);
    expect((await reopened.stats(0)).total).toBe(50);
    expect((await reopened.getMany([records[7]!.id])).get(records[7]!.id)?.status).toBe('gone');
    await reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
