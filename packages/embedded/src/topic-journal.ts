import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { BackendError, type IncomingMessage, type TopicPartitionOffset } from '@crawler/core';
import { cutTornTail } from './torn-tail.js';

interface MessageLine {
  o: number;
  k: string | null;
  v: string;
  h: Record<string, string>;
  t: number;
}

interface PartitionFile {
  fd: number;
  bytes: number;
  /** First offset the file holds. */
  base: number;
}

/** A rewrite that drops consumed messages is worth it past this size, once they are most of the file. */
const REWRITE_AFTER_BYTES = 4 * 1024 * 1024;
const OFFSETS = 'offsets.json';

/**
 * The in-process bus's durable topics, in a folder: each partition's messages as JSON lines
 * (appended synchronously before a send resolves, so a message acknowledged is on disk), and the
 * groups' committed offsets of those topics (rewritten whole on every commit: a few hundred bytes).
 * A restarted bus reads them back, so a consumer resumes at its last commit and what it had not
 * finished is delivered again, as Kafka would. Consumed messages are dropped by rewriting the
 * file once they are most of it.
 */
export class TopicJournal {
  private readonly files = new Map<string, PartitionFile>();
  /** Committed offsets: group -> "topic/partition" -> next offset to read. */
  private readonly offsets: Record<string, Record<string, number>>;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, OFFSETS);
    this.offsets = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as typeof this.offsets) : {};
  }

  /** The committed offsets of one group on durable topics, as the bus keys them. */
  committed(groupId: string): [topic: string, partition: number, offset: number][] {
    return Object.entries(this.offsets[groupId] ?? {}).map(([key, offset]) => {
      const slash = key.lastIndexOf('/');
      return [key.slice(0, slash), Number(key.slice(slash + 1)), offset];
    });
  }

  /** Reads one partition back (its torn last line cut) and opens it for appends. */
  load(topic: string, partition: number): { base: number; messages: IncomingMessage[] } {
    const path = this.path(topic, partition);
    const size = cutTornTail(path);
    const messages: IncomingMessage[] = [];
    let base: number | null = null;
    if (size > 0) {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (!line) continue;
        const parsed = JSON.parse(line) as MessageLine | { base: number };
        if ('base' in parsed) {
          base = parsed.base;
          continue;
        }
        base ??= parsed.o;
        messages.push({
          topic,
          partition,
          offset: parsed.o,
          key: parsed.k === null ? null : Buffer.from(parsed.k, 'base64'),
          value: Buffer.from(parsed.v, 'base64'),
          headers: parsed.h,
          timestamp: parsed.t,
        });
      }
    }
    this.files.set(this.key(topic, partition), { fd: openSync(path, 'a'), bytes: size, base: base ?? 0 });
    return { base: base ?? 0, messages };
  }

  append(topic: string, partition: number, messages: IncomingMessage[]): void {
    const file = this.files.get(this.key(topic, partition))!;
    const chunk = `${messages.map((message) => JSON.stringify(toLine(message))).join('\n')}\n`;
    try {
      file.bytes += writeSync(file.fd, chunk);
    } catch (cause) {
      throw new BackendError(`cannot write the ${topic} journal in ${this.dir}`, { cause });
    }
  }

  commit(groupId: string, offsets: TopicPartitionOffset[]): void {
    const group = (this.offsets[groupId] ??= {});
    let changed = false;
    for (const { topic, partition, offset } of offsets) {
      changed ||= group[this.key(topic, partition)] !== offset;
      group[this.key(topic, partition)] = offset;
    }
    if (!changed) return;
    const path = join(this.dir, OFFSETS);
    writeFileSync(`${path}.tmp`, JSON.stringify(this.offsets));
    renameSync(`${path}.tmp`, path);
  }

  /** Every group consumed up to `floor`: rewrites the file with only what remains once that pays. */
  trimmed(topic: string, partition: number, floor: number, remaining: () => IncomingMessage[]): void {
    const file = this.files.get(this.key(topic, partition));
    if (!file || file.bytes < REWRITE_AFTER_BYTES) return;
    const kept = remaining();
    const end = floor + kept.length;
    if ((floor - file.base) * 2 < end - file.base) return;
    const path = this.path(topic, partition);
    const lines = [JSON.stringify({ base: floor }), ...kept.map((message) => JSON.stringify(toLine(message)))];
    const text = `${lines.join('\n')}\n`;
    writeFileSync(`${path}.tmp`, text);
    closeSync(file.fd);
    renameSync(`${path}.tmp`, path);
    this.files.set(this.key(topic, partition), {
      fd: openSync(path, 'a'),
      bytes: Buffer.byteLength(text),
      base: floor,
    });
  }

  close(): void {
    for (const file of this.files.values()) closeSync(file.fd);
    this.files.clear();
  }

  private key(topic: string, partition: number): string {
    return `${topic}/${partition}`;
  }

  private path(topic: string, partition: number): string {
    return join(this.dir, `${topic}-${partition}.jsonl`);
  }
}

function toLine(message: IncomingMessage): MessageLine {
  return {
    o: message.offset,
    k: message.key === null ? null : message.key.toString('base64'),
    v: message.value.toString('base64'),
    h: message.headers,
    t: message.timestamp,
  };
}
