import { createReadStream, existsSync, mkdirSync, readdirSync, statSync, truncateSync, unlinkSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gunzipSync } from 'node:zlib';
import type { PageStore, StoredPage } from '@crawler/core';
import { BackendError, rawBody, ErrorCode } from '@crawler/core';
import { WarcEncoderThread } from './warc-encoder-thread.js';
import type { WarcPageInput } from './warc-page-encoding.js';
import { cutTornTail } from './torn-tail.js';
import { parseWarcRecords } from './warc-record.js';

export interface WarcPageStoreOptions {
  /** gzip level of each record (1 fastest, 9 smallest). */
  gzipLevel?: number;
  /** A new WARC file is started past this size. */
  maxFileBytes?: number;
  /**
   * A look at another process's WARC files (crawler page get beside a running crawl): nothing is
   * cut or written, and put is refused.
   */
  readOnly?: boolean;
}

interface IndexEntry {
  url: string;
  fetchedAt: number;
  filename: string;
  offset: number;
  length: number;
}

const WARC_FILE = /^pages-(\d+)\.warc\.gz$/;

/**
 * Pages as standard WARC 1.1 files (.warc.gz, one gzip member per record) in a folder: a
 * `response` record with the HTTP headers as the server sent them and the body as fetched
 * (decoded; cut at the size cap and marked `WARC-Truncated: length`), and a `metadata` record (JSON) with
 * the crawler's fields, written back to back. pages.cdxj indexes them by SURT for reading back;
 * any WARC tool (warcio, pywb, wget's readers) can read the files.
 */
export class WarcPageStore implements PageStore {
  private readonly index = new Map<string, IndexEntry[]>();
  private file: { handle: FileHandle; name: string; size: number } | null = null;
  private indexHandle: FileHandle | null = null;
  private writing: Promise<void> = Promise.resolve();
  private sequence = 0;
  /** Pages put during one tick are written together: one compression fan-out, one write. */
  private pending: { pages: StoredPage[]; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private readonly encoder: WarcEncoderThread;

  private constructor(
    private readonly dir: string,
    private readonly options: Required<WarcPageStoreOptions>,
  ) {
    this.encoder = new WarcEncoderThread(options.gzipLevel);
  }

  static async open(dir: string, options: WarcPageStoreOptions = {}): Promise<WarcPageStore> {
    mkdirSync(dir, { recursive: true });
    const store = new WarcPageStore(dir, {
      gzipLevel: options.gzipLevel ?? 6,
      maxFileBytes: options.maxFileBytes ?? 1024 * 1024 * 1024,
      readOnly: options.readOnly ?? false,
    });
    const indexedEnds = await store.loadIndex();
    if (store.options.readOnly) return store;
    const files = readdirSync(dir).filter((name) => WARC_FILE.test(name));
    for (const name of files) cutUnindexedTail(join(dir, name), indexedEnds.get(name) ?? 0);
    store.sequence = Math.max(-1, ...files.map((name) => Number(WARC_FILE.exec(name)![1]))) + 1;
    store.indexHandle = await open(join(dir, 'pages.cdxj'), 'a');
    return store;
  }

  /**
   * Reads pages.cdxj (its torn last line cut first, unless read-only: a line being written is
   * skipped); returns where each file's last indexed record ends.
   */
  private async loadIndex(): Promise<Map<string, number>> {
    const path = join(this.dir, 'pages.cdxj');
    const ends = new Map<string, number>();
    if (!existsSync(path) || (!this.options.readOnly && cutTornTail(path) === 0)) return ends;
    let number = 0;
    for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
      number++;
      if (!line) continue;
      let entry: IndexEntry;
      try {
        entry = JSON.parse(line.slice(line.indexOf('{'))) as IndexEntry;
      } catch (cause) {
        if (this.options.readOnly) continue;
        throw new BackendError(`${path} line ${number} is not a CDXJ line`, { cause, code: ErrorCode.BACKEND_REFUSED });
      }
      this.remember(entry);
      ends.set(entry.filename, Math.max(ends.get(entry.filename) ?? 0, entry.offset + entry.length));
    }
    return ends;
  }

  put(pages: StoredPage[]): Promise<void> {
    if (this.options.readOnly)
      return Promise.reject(
        new BackendError(`the WARC files in ${this.dir} are open read-only`, { code: ErrorCode.BACKEND_REFUSED }),
      );
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flushPending());
      this.pending.push({ pages, resolve, reject });
    });
  }

  private flushPending(): void {
    const batch = this.pending;
    this.pending = [];
    const work = this.writing.then(() => this.write(batch.flatMap((item) => item.pages)));
    this.writing = work.catch(() => undefined);
    work.then(
      () => batch.forEach((item) => item.resolve()),
      (error: unknown) => batch.forEach((item) => item.reject(error)),
    );
  }

  private async write(pages: StoredPage[]): Promise<void> {
    const fresh: StoredPage[] = [];
    const seen = new Set<string>();
    for (const page of pages) {
      const key = `${page.fetchedAt} ${page.url}`;
      if (this.has(page.url, page.fetchedAt) || seen.has(key)) continue;
      seen.add(key);
      fresh.push(page);
    }
    if (fresh.length === 0) return;
    const records = await this.encoder.encode(fresh.map(warcPageInput));
    const file = await this.currentFile();
    let offset = file.size;
    const lines: string[] = [];
    const entries: IndexEntry[] = [];
    fresh.forEach((page, i) => {
      const length = records[i]!.length;
      entries.push({ url: page.url, fetchedAt: page.fetchedAt, filename: file.name, offset, length });
      lines.push(
        `${page.surt} ${timestamp14(page.fetchedAt)} ${JSON.stringify({ url: page.url, fetchedAt: page.fetchedAt, mime: page.contentType, status: page.httpStatus, digest: page.digest, filename: file.name, offset, length })}`,
      );
      offset += length;
    });
    try {
      const data = Buffer.concat(records);
      await file.handle.write(data, 0, data.length, null);
      file.size += data.length;
      await this.indexHandle!.write(`${lines.join('\n')}\n`);
    } catch (cause) {
      throw new BackendError(`cannot write WARC data in ${this.dir}`, { cause });
    }
    for (const entry of entries) this.remember(entry);
    if (file.size > this.options.maxFileBytes) {
      await file.handle.close();
      this.file = null;
    }
  }

  async get(url: string, options: { versions?: number } = {}): Promise<StoredPage[]> {
    const entries = (this.index.get(url) ?? []).slice(0, options.versions ?? 1);
    const out: StoredPage[] = [];
    for (const entry of entries) out.push(await this.read(entry));
    return out;
  }

  private async read(entry: IndexEntry): Promise<StoredPage> {
    const handle = await open(join(this.dir, entry.filename), 'r');
    try {
      const buffer = Buffer.alloc(entry.length);
      await handle.read(buffer, 0, entry.length, entry.offset);
      const [response, metadata] = parseWarcRecords(gunzipSync(buffer));
      if (!response || !metadata)
        throw new BackendError(`WARC record of ${entry.url} in ${entry.filename}@${entry.offset} is incomplete`, {
          code: ErrorCode.BACKEND_REFUSED,
        });
      const headEnd = response.block.indexOf('\r\n\r\n');
      const body = Buffer.from(response.block.subarray(headEnd + 4));
      // A record written before pages had Markdown has none.
      const meta = JSON.parse(metadata.block.toString('utf8')) as Omit<
        StoredPage,
        'body' | 'bodyEncoding' | 'markdown'
      > &
        Partial<Pick<StoredPage, 'markdown'>>;
      return { ...meta, markdown: meta.markdown ?? null, body, bodyEncoding: 'identity', bodyLength: body.length };
    } finally {
      await handle.close();
    }
  }

  async flush(): Promise<void> {
    if (this.pending.length > 0) this.flushPending();
    await this.writing;
    await this.file?.handle.datasync();
    await this.indexHandle?.datasync();
  }

  async close(): Promise<void> {
    await this.flush();
    await this.file?.handle.close();
    await this.indexHandle?.close();
    await this.encoder.close();
    this.file = null;
    this.indexHandle = null;
  }

  private async currentFile(): Promise<{ handle: FileHandle; name: string; size: number }> {
    if (this.file) return this.file;
    const name = `pages-${String(this.sequence++).padStart(5, '0')}.warc.gz`;
    const handle = await open(join(this.dir, name), 'a');
    const size = (await handle.stat()).size;
    this.file = { handle, name, size };
    return this.file;
  }

  private has(url: string, fetchedAt: number): boolean {
    return this.index.get(url)?.some((entry) => entry.fetchedAt === fetchedAt) ?? false;
  }

  private remember(entry: IndexEntry): void {
    let list = this.index.get(entry.url);
    if (!list) this.index.set(entry.url, (list = []));
    if (list.some((existing) => existing.fetchedAt === entry.fetchedAt)) return;
    list.push(entry);
    list.sort((a, b) => b.fetchedAt - a.fetchedAt);
  }
}

/**
 * A record is indexed only after its bytes are written, and its page's status is sent only after
 * both: bytes past the last indexed record belong to pages whose outcome never reached the link
 * base, so they are fetched and written again. Such a tail (a record cut by a kill, or whole ones
 * whose index line was not written) is truncated to the end of the last indexed record, which is
 * the end of a complete gzip member; a file with no indexed record is removed.
 */
function cutUnindexedTail(path: string, indexedEnd: number): void {
  if (statSync(path).size <= indexedEnd) return;
  if (indexedEnd === 0) unlinkSync(path);
  else truncateSync(path, indexedEnd);
}

function timestamp14(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function reasonPhrase(status: number): string {
  const phrases: Record<number, string> = {
    200: 'OK',
    203: 'Non-Authoritative Information',
    206: 'Partial Content',
    304: 'Not Modified',
  };
  return phrases[status] ?? 'Status';
}

/** The strings and bytes of a page's records; the encoder thread digests and compresses them. */
function warcPageInput(page: StoredPage): WarcPageInput {
  const body = rawBody(page.body, page.bodyEncoding);
  // The server's headers as received, Content-Length and Content-Encoding included: they are
  // evidence of what was served; WARC-Truncated says when the block holds less than that.
  const httpHead = [`HTTP/1.1 ${page.httpStatus} ${reasonPhrase(page.httpStatus)}`];
  for (const [name, value] of Object.entries(page.headers)) httpHead.push(`${name}: ${value.replace(/[\r\n]+/g, ' ')}`);
  const { body: _body, bodyEncoding: _encoding, ...meta } = page;
  // A copy of its own, so the thread gets exactly the body (a view may sit in a larger buffer) and it can be moved.
  return {
    url: page.url,
    fetchedAt: page.fetchedAt,
    httpHead: httpHead.join('\r\n'),
    body: new Uint8Array(body),
    // The fetcher cuts a body only at its size cap (a deadline ends the fetch as a timeout instead).
    truncated: page.truncated ? 'length' : null,
    metadata: JSON.stringify(meta),
  };
}
