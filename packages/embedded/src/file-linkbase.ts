import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import { appendFile, open, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { DueQuery, LinkBase, LinkBaseStats, LinkMutation, LinkRecord } from '@crawler/core';
import { BackendError } from '@crawler/core';
import { DueIndex, isSchedulable } from './due-index.js';

export interface FileLinkBaseOptions {
  /** How often changed records are appended to the journal. */
  flushIntervalMs?: number;
  /** The journal is folded into a new snapshot when it grows past this many bytes. */
  compactAfterBytes?: number;
}

/**
 * The link base of one process: every record in memory, made durable as a snapshot plus an
 * append-only journal of changed records (JSON lines) in a folder, so a stopped crawl resumes.
 * One writer only: leases found at open belonged to a process that is gone, so they are released.
 * A crash (not a clean stop) can lose the changes of the last flush interval.
 */
export class FileLinkBase implements LinkBase {
  private readonly records = new Map<string, LinkRecord>();
  private readonly index = new DueIndex();
  private readonly dirty = new Set<string>();
  /** Kept as records change, so stats() costs nothing per record. */
  private readonly statusCounts = new Map<string, number>();
  private readonly leaseHolders = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private journalBytes = 0;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly options: Required<FileLinkBaseOptions>,
  ) {}

  static async open(dir: string, options: FileLinkBaseOptions = {}): Promise<FileLinkBase> {
    mkdirSync(dir, { recursive: true });
    const linkbase = new FileLinkBase(dir, { flushIntervalMs: options.flushIntervalMs ?? 250, compactAfterBytes: options.compactAfterBytes ?? 256 * 1024 * 1024 });
    await linkbase.load();
    linkbase.timer = setInterval(() => void linkbase.flush().catch(() => undefined), linkbase.options.flushIntervalMs);
    linkbase.timer.unref();
    return linkbase;
  }

  private get snapshotPath(): string {
    return join(this.dir, 'linkbase.snapshot.jsonl');
  }

  private get journalPath(): string {
    return join(this.dir, 'linkbase.journal.jsonl');
  }

  private async load(): Promise<void> {
    for (const path of [this.snapshotPath, this.journalPath]) {
      if (!existsSync(path)) continue;
      const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
      for await (const line of lines) {
        if (!line) continue;
        try {
          const record = JSON.parse(line) as LinkRecord;
          this.records.set(record.id, record);
        } catch {
          // A torn last line from a crash: everything before it is intact.
        }
      }
    }
    this.journalBytes = existsSync(this.journalPath) ? (await stat(this.journalPath)).size : 0;
    for (const [id, record] of this.records) {
      const current = record.leaseUntil > 0 ? { ...record, leaseUntil: 0 } : record;
      if (current !== record) this.dirty.add(id);
      this.records.set(id, current);
      this.statusCounts.set(current.status, (this.statusCounts.get(current.status) ?? 0) + 1);
      this.index.track(current);
    }
  }

  async insertNew(records: LinkRecord[]): Promise<string[]> {
    this.assertOpen();
    const created: string[] = [];
    for (const record of records) {
      if (this.records.has(record.id)) continue;
      this.put(record);
      created.push(record.id);
    }
    return created;
  }

  async getMany(ids: string[]): Promise<Map<string, LinkRecord>> {
    const out = new Map<string, LinkRecord>();
    for (const id of ids) {
      const record = this.records.get(id);
      if (record) out.set(id, record);
    }
    return out;
  }

  async update(ids: string[], mutate: LinkMutation): Promise<LinkRecord[]> {
    this.assertOpen();
    const changed: LinkRecord[] = [];
    for (const id of ids) {
      const current = this.records.get(id);
      if (!current) continue;
      const next = mutate(current);
      if (!next || next === current) continue;
      this.put(next);
      changed.push(next);
    }
    return changed;
  }

  async findDue(query: DueQuery): Promise<LinkRecord[]> {
    return this.index.due(query.now, query.limit, query.perQueueLimit, (id) => this.records.get(id));
  }

  async lease(ids: string[], until: number, now: number): Promise<LinkRecord[]> {
    this.assertOpen();
    const leased: LinkRecord[] = [];
    for (const id of ids) {
      const current = this.records.get(id);
      if (!current || !isSchedulable(current) || current.nextFetchAt > now || current.leaseUntil > now) continue;
      const expired = current.leaseUntil > 0 ? 1 : 0;
      const next = { ...current, leaseUntil: until, leaseExpiries: current.leaseExpiries + expired };
      this.put(next);
      leased.push(next);
    }
    return leased;
  }

  async stats(now: number, options: { due?: boolean } = {}): Promise<LinkBaseStats> {
    let leased = 0;
    for (const id of this.leaseHolders) if (this.records.get(id)!.leaseUntil > now) leased++;
    let due: number | null = null;
    if (options.due) {
      due = 0;
      for (const record of this.records.values()) if (isSchedulable(record) && record.nextFetchAt <= now && record.leaseUntil <= now) due++;
    }
    const byStatus = Object.fromEntries([...this.statusCounts].filter(([, count]) => count > 0));
    return { total: this.records.size, byStatus, leased, due };
  }

  async *scan(): AsyncIterable<LinkRecord> {
    for (const record of [...this.records.values()]) yield record;
  }

  /** Appends changed records to the journal; compacts into a snapshot when the journal is large. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.dirty.size === 0) return;
      const lines: string[] = [];
      for (const id of this.dirty) {
        const record = this.records.get(id);
        if (record) lines.push(JSON.stringify(record));
      }
      this.dirty.clear();
      const chunk = `${lines.join('\n')}\n`;
      try {
        await appendFile(this.journalPath, chunk);
      } catch (cause) {
        throw new BackendError(`cannot write the link base journal in ${this.dir}`, { cause });
      }
      this.journalBytes += Buffer.byteLength(chunk);
      if (this.journalBytes > this.options.compactAfterBytes) await this.compact();
    });
    return this.writing;
  }

  private async compact(): Promise<void> {
    const tmp = `${this.snapshotPath}.tmp`;
    const handle = await open(tmp, 'w');
    let buffer: string[] = [];
    for (const record of this.records.values()) {
      buffer.push(JSON.stringify(record));
      if (buffer.length >= 10_000) {
        await handle.write(`${buffer.join('\n')}\n`);
        buffer = [];
      }
    }
    if (buffer.length > 0) await handle.write(`${buffer.join('\n')}\n`);
    await handle.sync();
    await handle.close();
    await rename(tmp, this.snapshotPath);
    await writeFile(this.journalPath, '');
    this.journalBytes = 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.timer) clearInterval(this.timer);
    await this.flush();
    this.closed = true;
  }

  private put(record: LinkRecord): void {
    const previous = this.records.get(record.id);
    if (previous) this.statusCounts.set(previous.status, this.statusCounts.get(previous.status)! - 1);
    this.statusCounts.set(record.status, (this.statusCounts.get(record.status) ?? 0) + 1);
    if (record.leaseUntil > 0) this.leaseHolders.add(record.id);
    else this.leaseHolders.delete(record.id);
    this.records.set(record.id, record);
    this.dirty.add(record.id);
    this.index.track(record);
  }

  private assertOpen(): void {
    if (this.closed) throw new BackendError('the link base is closed', { retriable: false });
  }
}
