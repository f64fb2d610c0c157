import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import { appendFile, open, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type {
  DueQuery,
  LeasedQuery,
  LinkBase,
  LinkBaseControl,
  LinkBaseStats,
  LinkMutation,
  LinkRecord,
  SharedCounters,
} from '@crawler/core';
import { BackendError, EMPTY_CONTROL, ErrorCode, linkPartition, replaceFile } from '@crawler/core';
import { DueIndex, isSchedulable } from './due-index.js';
import { cutTornTail } from './torn-tail.js';

export interface FileLinkBaseOptions {
  /** How often changed records are appended to the journal. */
  flushIntervalMs?: number;
  /** The journal is folded into a new snapshot when it grows past this many bytes. */
  compactAfterBytes?: number;
  /**
   * A look at another process's link base (operators' commands beside a running crawl): nothing
   * is ever written, leases are left as found, and every write is refused.
   */
  readOnly?: boolean;
}

/**
 * The link base of one process: every record in memory, made durable as a snapshot plus an
 * append-only journal of changed records (JSON lines) in a folder, so a stopped crawl resumes.
 * One writer only: leases found at open belonged to a process that is gone, so they are released.
 * Inserts and leases are durable when they return; a crash (not a clean stop) can lose the other
 * changes of the last flush interval.
 */
export class FileLinkBase implements LinkBase {
  private readonly records = new Map<string, LinkRecord>();
  private readonly index = new DueIndex();
  private readonly dirty = new Set<string>();
  /** Kept as records change, so stats() costs nothing per record. */
  private readonly statusCounts = new Map<string, number>();
  private readonly leaseHolders = new Set<string>();
  private readonly jobCounts = new Map<string, { total: number; visited: number }>();
  private counters: Record<string, SharedCounters> | null = null;
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
    const linkbase = new FileLinkBase(dir, {
      flushIntervalMs: options.flushIntervalMs ?? 250,
      compactAfterBytes: options.compactAfterBytes ?? 256 * 1024 * 1024,
      readOnly: options.readOnly ?? false,
    });
    await linkbase.load();
    if (linkbase.options.readOnly) return linkbase;
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

  private get controlPath(): string {
    return join(this.dir, 'control.json');
  }

  private get countersPath(): string {
    return join(this.dir, 'counters.json');
  }

  private async load(): Promise<void> {
    // A reader leaves the file alone: its last line may be one the writer is in the middle of.
    if (!this.options.readOnly) this.journalBytes = cutTornTail(this.journalPath);
    for (const path of [this.snapshotPath, this.journalPath]) {
      if (!existsSync(path)) continue;
      const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
      for await (const line of lines) {
        if (!line) continue;
        try {
          const record = JSON.parse(line) as LinkRecord;
          // Records written before link records carried their partition get it here.
          record.partition ??= linkPartition(record.queueKey);
          this.records.set(record.id, record);
        } catch {
          // A line being written, seen by a read-only reader: skipped.
        }
      }
    }
    for (const [id, record] of this.records) {
      const current = record.leaseUntil > 0 && !this.options.readOnly ? { ...record, leaseUntil: 0 } : record;
      if (current !== record) this.dirty.add(id);
      this.records.set(id, current);
      if (current.leaseUntil > 0) this.leaseHolders.add(id);
      this.count(current, 1);
      this.index.track(current);
    }
  }

  /** Durable when it returns: a links message is committed after this, and a URL lost then is not found again. */
  async insertNew(records: LinkRecord[]): Promise<string[]> {
    this.assertOpen();
    const created: string[] = [];
    for (const record of records) {
      if (this.records.has(record.id)) continue;
      this.put(record);
      created.push(record.id);
    }
    if (created.length > 0) await this.flush();
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
    const selection = {
      now: query.now,
      limit: query.limit,
      perGroupLimit: query.perQueueLimit,
      excludeQueues: new Set(query.exclude?.queues),
      excludeJobs: new Set(query.exclude?.jobs),
      partitions: query.partitions && new Set(query.partitions),
    };
    return this.index.due(selection, (id) => this.records.get(id));
  }

  /**
   * Durable when it returns, before the URLs are handed out: after a crash, the URLs a fetcher may
   * have fetched without the outcome arriving are exactly the leased ones, so only they are fetched again.
   */
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
    if (leased.length > 0) await this.flush();
    return leased;
  }

  async findLeased(query: LeasedQuery): Promise<LinkRecord[]> {
    const partitions = query.partitions && new Set(query.partitions);
    const out: LinkRecord[] = [];
    for (const id of this.leaseHolders) {
      if (out.length >= query.limit) break;
      const record = this.records.get(id)!;
      if (record.leaseUntil > query.now && (!partitions || partitions.has(record.partition))) out.push(record);
    }
    return out;
  }

  async getCounters(name: string): Promise<SharedCounters> {
    return { ...(await this.loadCounters())[name] };
  }

  /** One process writes, so a plain read-modify-write is atomic; the file is replaced whole. */
  async updateCounters(
    name: string,
    mutate: (current: SharedCounters) => SharedCounters | null,
  ): Promise<SharedCounters> {
    this.assertOpen();
    const all = await this.loadCounters();
    const next = mutate({ ...all[name] });
    if (!next) return { ...all[name] };
    all[name] = { ...next };
    await this.writeWhole(this.countersPath, JSON.stringify(all), 'counters');
    return { ...next };
  }

  private async loadCounters(): Promise<Record<string, SharedCounters>> {
    if (this.counters) return this.counters;
    try {
      this.counters = existsSync(this.countersPath)
        ? (JSON.parse(await readFile(this.countersPath, 'utf8')) as Record<string, SharedCounters>)
        : {};
    } catch (cause) {
      throw new BackendError(`cannot read the link base counters file ${this.countersPath}`, {
        cause,
        code: ErrorCode.BACKEND_REFUSED,
      });
    }
    return this.counters;
  }

  async stats(now: number, options: { due?: boolean } = {}): Promise<LinkBaseStats> {
    let leased = 0;
    for (const id of this.leaseHolders) if (this.records.get(id)!.leaseUntil > now) leased++;
    const byStatus = Object.fromEntries([...this.statusCounts].filter(([, count]) => count > 0));
    const byJob = Object.fromEntries(
      [...this.jobCounts].filter(([, counts]) => counts.total > 0).map(([job, counts]) => [job, { ...counts }]),
    );
    const stats: LinkBaseStats = {
      total: this.records.size,
      byStatus,
      leased,
      byJob,
      due: null,
      dueDetail: null,
      nextDueAt: null,
    };
    if (options.due) Object.assign(stats, this.countDue(now));
    return stats;
  }

  /** A scan of every record: the embedded link base keeps no counters by due time. */
  private countDue(now: number): Pick<LinkBaseStats, 'due' | 'dueDetail' | 'nextDueAt'> {
    let due = 0;
    let nextDueAt = Number.MAX_SAFE_INTEGER;
    const byClass: Record<string, number> = {};
    const byLevel: Record<string, number> = {};
    const byQueue = new Map<string, number>();
    for (const record of this.records.values()) {
      if (!isSchedulable(record)) continue;
      if (record.nextFetchAt > now) {
        nextDueAt = Math.min(nextDueAt, record.nextFetchAt);
        continue;
      }
      if (record.leaseUntil > now) continue;
      due++;
      byClass[record.trafficClass] = (byClass[record.trafficClass] ?? 0) + 1;
      byLevel[record.level] = (byLevel[record.level] ?? 0) + 1;
      byQueue.set(record.queueKey, (byQueue.get(record.queueKey) ?? 0) + 1);
    }
    const topQueues = [...byQueue]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 20)
      .map(([queueKey, count]) => ({ queueKey, due: count }));
    return {
      due,
      dueDetail: { byClass, byLevel, topQueues },
      nextDueAt: nextDueAt < Number.MAX_SAFE_INTEGER ? nextDueAt : null,
    };
  }

  async getControl(): Promise<LinkBaseControl> {
    if (!existsSync(this.controlPath)) return EMPTY_CONTROL;
    try {
      return {
        ...EMPTY_CONTROL,
        ...(JSON.parse(await readFile(this.controlPath, 'utf8')) as Partial<LinkBaseControl>),
      };
    } catch (cause) {
      throw new BackendError(`cannot read the link base control file ${this.controlPath}`, {
        cause,
        code: ErrorCode.BACKEND_REFUSED,
      });
    }
  }

  async putControl(control: LinkBaseControl): Promise<void> {
    this.assertOpen();
    await this.writeWhole(this.controlPath, JSON.stringify(control), 'control');
  }

  /** Written to a temporary file and renamed, so a crash leaves the old state or the new one. */
  private async writeWhole(path: string, content: string, what: string): Promise<void> {
    try {
      await replaceFile(path, content);
    } catch (cause) {
      throw new BackendError(`cannot write the link base ${what} file ${path}`, { cause });
    }
  }

  async *scan(): AsyncIterable<LinkRecord> {
    for (const record of [...this.records.values()]) yield record;
  }

  /** Appends changed records to the journal; compacts into a snapshot when the journal is large. */
  flush(): Promise<void> {
    if (this.options.readOnly) return this.writing;
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
    if (previous) this.count(previous, -1);
    this.count(record, 1);
    if (record.leaseUntil > 0) this.leaseHolders.add(record.id);
    else this.leaseHolders.delete(record.id);
    this.records.set(record.id, record);
    this.dirty.add(record.id);
    this.index.track(record);
  }

  /** Keeps stats() free of scans: counts by status and job change with every write. */
  private count(record: LinkRecord, delta: 1 | -1): void {
    this.statusCounts.set(record.status, (this.statusCounts.get(record.status) ?? 0) + delta);
    let job = this.jobCounts.get(record.jobId);
    if (!job) this.jobCounts.set(record.jobId, (job = { total: 0, visited: 0 }));
    job.total += delta;
    if (record.fetchCount > 0 || record.leaseUntil > 0) job.visited += delta;
  }

  private assertOpen(): void {
    if (this.closed) throw new BackendError('the link base is closed', { code: ErrorCode.BACKEND_REFUSED });
    if (this.options.readOnly)
      throw new BackendError(`the link base in ${this.dir} is open read-only`, { code: ErrorCode.BACKEND_REFUSED });
  }
}
