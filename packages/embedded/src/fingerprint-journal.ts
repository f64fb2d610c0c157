import { closeSync, createReadStream, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BackendError } from '@crawler/core';
import { cutTornTail } from './torn-tail.js';

/**
 * One change to the fingerprint store, as a JSON line. Each op sets an absolute state (a value and
 * its expiry, members added to a set), so replaying an op on a state that already has it changes
 * nothing: that is what lets a snapshot be written while the store keeps changing.
 */
export type FingerprintOp =
  | ['v', id: string, value: string, expiresAt: number]
  | ['t', id: string, expiresAt: number]
  | ['s', id: string, expiresAt: number, fresh: 0 | 1, ...members: string[]]
  | ['d', id: string]
  | ['b', id: string, expiresAt: number, load: number, ...bits: number[]]
  | ['f', id: string, expiresAt: number, load: number, offset: number, base64: string];

export interface FingerprintJournalOptions {
  /** The journal is folded into a new snapshot once it is this large and larger than the last snapshot. */
  compactAfterBytes?: number;
}

const SNAPSHOT = 'fingerprints.snapshot.jsonl';
const JOURNAL = 'fingerprints.journal.jsonl';
/** The journal of before the last snapshot began; gone once that snapshot is complete. */
const OLD_JOURNAL = 'fingerprints.journal.old.jsonl';
const SNAPSHOT_CHUNK = 10_000;

/**
 * The fingerprint store's durability: a snapshot plus an append-only journal in a folder. Every op
 * is written with a synchronous append before the store's call returns, so whatever a caller does
 * next (a WARC record, a status) comes after it on disk: a process killed at any point leaves a
 * journal that is a prefix of what happened, whose torn last line is cut at the next open. (A
 * power loss can still take what the OS had not written; we do not fsync every append.)
 */
export class FingerprintJournal {
  private fd: number;
  private bytes: number;
  private snapshotBytes = 0;
  private compaction: Promise<void> | null = null;
  private failure: Error | null = null;

  private constructor(
    private readonly dir: string,
    private readonly compactAfterBytes: number,
    private readonly capture: () => Iterable<FingerprintOp>,
  ) {
    this.bytes = cutTornTail(this.path(JOURNAL));
    this.fd = openSync(this.path(JOURNAL), 'a');
  }

  /**
   * Replays the folder into `apply` (snapshot, then the journals in order) and opens the journal.
   * `capture` is called when a snapshot begins and must return the store's live state as ops,
   * reading a copy taken at that moment.
   */
  static async open(
    dir: string,
    apply: (op: FingerprintOp) => void,
    capture: () => Iterable<FingerprintOp>,
    options: FingerprintJournalOptions = {},
  ): Promise<FingerprintJournal> {
    mkdirSync(dir, { recursive: true });
    const journal = new FingerprintJournal(dir, options.compactAfterBytes ?? 64 * 1024 * 1024, capture);
    for (const name of [SNAPSHOT, OLD_JOURNAL, JOURNAL]) await journal.replay(name, apply);
    // A crash while the last snapshot was written: finish the job now, from the state just loaded.
    if (existsSync(journal.path(OLD_JOURNAL))) await journal.compact();
    return journal;
  }

  /** Appends ops synchronously; starts a snapshot in the background when the journal has grown. */
  append(ops: FingerprintOp[]): void {
    if (this.failure) throw this.failure;
    if (ops.length === 0) return;
    const chunk = `${ops.map((op) => JSON.stringify(op)).join('\n')}\n`;
    try {
      writeSync(this.fd, chunk);
    } catch (cause) {
      throw new BackendError(`cannot write the fingerprint journal in ${this.dir}`, { cause });
    }
    this.bytes += Buffer.byteLength(chunk);
    if (!this.compaction && this.bytes > this.compactAfterBytes && this.bytes > this.snapshotBytes) {
      this.compaction = this.compact()
        .catch((cause: unknown) => {
          this.failure = new BackendError(`cannot write a fingerprint snapshot in ${this.dir}`, { cause });
        })
        .finally(() => (this.compaction = null));
    }
  }

  /** Waits for a snapshot in progress, then closes the journal. */
  async close(): Promise<void> {
    await this.compaction;
    closeSync(this.fd);
  }

  /**
   * The journal is set aside and a fresh one opened (synchronously, between two appends), then the
   * state as of that moment is written to a new snapshot. Until the snapshot is renamed in place,
   * the old snapshot, the old journal and the new journal together hold everything; after it, the
   * ops of both journals are already in the snapshot or replay onto it to the same state.
   */
  private async compact(): Promise<void> {
    if (!existsSync(this.path(OLD_JOURNAL))) {
      closeSync(this.fd);
      renameSync(this.path(JOURNAL), this.path(OLD_JOURNAL));
      this.fd = openSync(this.path(JOURNAL), 'a');
      this.bytes = 0;
    }
    const ops = this.capture();
    const tmp = this.path(`${SNAPSHOT}.tmp`);
    const handle = await open(tmp, 'w');
    let written = 0;
    try {
      let lines: string[] = [];
      for (const op of ops) {
        lines.push(JSON.stringify(op));
        if (lines.length >= SNAPSHOT_CHUNK) {
          written += (await handle.write(`${lines.join('\n')}\n`)).bytesWritten;
          lines = [];
        }
      }
      if (lines.length > 0) written += (await handle.write(`${lines.join('\n')}\n`)).bytesWritten;
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, this.path(SNAPSHOT));
    await unlink(this.path(OLD_JOURNAL));
    this.snapshotBytes = written;
  }

  private async replay(name: string, apply: (op: FingerprintOp) => void): Promise<void> {
    const path = this.path(name);
    if (!existsSync(path)) return;
    const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    let bytes = 0;
    for await (const line of lines) {
      bytes += Buffer.byteLength(line) + 1;
      if (!line) continue;
      let op: FingerprintOp;
      try {
        op = JSON.parse(line) as FingerprintOp;
      } catch {
        // Only the old journal can end torn (the process died before its snapshot); the rest is whole.
        continue;
      }
      apply(op);
    }
    if (name === SNAPSHOT) this.snapshotBytes = bytes;
  }

  private path(name: string): string {
    return join(this.dir, name);
  }
}
