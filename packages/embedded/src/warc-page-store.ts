import { createReadStream, existsSync, mkdirSync, readdirSync, statSync, truncateSync, unlinkSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gunzipSync } from 'node:zlib';
import type { PageStore, RedirectCapture, Revisit, StoredPage } from '@crawler/core';
import {
  archiveSurtKey,
  BackendError,
  cdxDigest,
  ErrorCode,
  cdxMime,
  cdxTimestamp,
  cdxjCaptureKind,
  formatCdxjLine,
  parseCdxjLine,
  rawBody,
} from '@crawler/core';
import { cdxjLinesSorted, mergeCdxjFiles, sortCdxjFile } from './cdxj-files.js';
import { migrateLegacyIndex } from './legacy-warc-index.js';
import { WarcEncoderThread } from './warc-encoder-thread.js';
import type { WarcCaptureInput } from './warc-page-encoding.js';
import { cutTornTail } from './torn-tail.js';
import { fileIndexName, MERGED_INDEX, WARC_FILE } from './warc-file-names.js';
import { parseWarcRecords } from './warc-record.js';
import { warcinfoRecord } from './warcinfo-record.js';

export interface WarcPageStoreOptions {
  /** gzip level of each record (1 fastest, 9 smallest). */
  gzipLevel?: number;
  /** A new WARC file is started past this size. */
  maxFileBytes?: number;
  /** Written as `operator` in each file's warcinfo record; empty leaves it out. */
  operator?: string;
  /**
   * A look at another process's WARC files (crawler page get beside a running crawl): nothing is
   * cut or written, and put is refused.
   */
  readOnly?: boolean;
}

/** Where one capture's records are: its first record at `offset`, the last one ending at `end`. */
interface IndexEntry {
  url: string;
  fetchedAt: number;
  filename: string;
  offset: number;
  end: number;
}

type Capture =
  | { kind: 'page'; page: StoredPage }
  | { kind: 'revisit'; revisit: Revisit }
  | { kind: 'redirect'; redirect: RedirectCapture };
type CaptureKind = Capture['kind'];

interface OpenFile {
  handle: FileHandle;
  index: FileHandle;
  name: string;
  size: number;
}

/**
 * Pages as standard WARC 1.1 files (.warc.gz, one gzip member per record) in a folder. Each file
 * opens with a `warcinfo` record; a page is a `response` record (the server's HTTP headers as sent
 * and the body as fetched, decoded; cut at the size cap and marked `WARC-Truncated: length`) and a
 * `metadata` record (JSON) with the crawler's fields; a capture dedup found identical to an earlier one is a `revisit` record
 * (identical-payload-digest profile) and its metadata; a redirect the crawler followed is a `response`
 * record with its 3xx status line, its Location and the short body it came with.
 *
 * Each WARC file has a CDXJ index of its own beside it (`pages-00000.cdxj`), one line per response
 * or revisit record as pywb reads them, appended after the records' bytes are written (so it is
 * also the store's journal: what it does not list is cut at open), and sorted when the file is
 * finished. When the store closes, the files' indexes are merged into one sorted `index.cdxj`, the
 * index of the whole crawl that replay tools and `crawler export wacz` use.
 */
export class WarcPageStore implements PageStore {
  /** Where each URL's captures are, by kind: pages, revisits and redirects are read apart. */
  private readonly indexes: Record<CaptureKind, Map<string, IndexEntry[]>> = {
    page: new Map(),
    revisit: new Map(),
    redirect: new Map(),
  };
  private file: OpenFile | null = null;
  /** Indexes of files written or found unsorted: sorted when their file is finished. */
  private readonly unsorted = new Set<string>();
  private changed = false;
  private writing: Promise<void> = Promise.resolve();
  private sequence = 0;
  /** Captures put during one tick are written together: one compression fan-out, one write. */
  private pending: { captures: Capture[]; resolve: () => void; reject: (error: unknown) => void }[] = [];
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
      operator: options.operator ?? '',
      readOnly: options.readOnly ?? false,
    });
    if (!store.options.readOnly && (await migrateLegacyIndex(dir))) store.changed = true;
    const indexedEnds = await store.loadIndexes();
    if (store.options.readOnly) return store;
    const files = readdirSync(dir).filter((name) => WARC_FILE.test(name));
    for (const name of files) cutUnindexedTail(join(dir, name), indexedEnds.get(name) ?? 0);
    store.sequence = Math.max(-1, ...files.map((name) => Number(WARC_FILE.exec(name)![1]))) + 1;
    if (!existsSync(join(dir, MERGED_INDEX)) && indexedEnds.size > 0) store.changed = true;
    return store;
  }

  /**
   * Reads every file's index (a torn last line cut first, unless read-only: a line being written is
   * skipped); returns where each file's last indexed capture ends.
   */
  private async loadIndexes(): Promise<Map<string, number>> {
    const ends = new Map<string, number>();
    for (const warcName of readdirSync(this.dir).filter((name) => WARC_FILE.test(name))) {
      const name = fileIndexName(warcName);
      const path = join(this.dir, name);
      if (!existsSync(path) || (!this.options.readOnly && cutTornTail(path) === 0)) continue;
      const lines: string[] = [];
      let number = 0;
      for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
        number++;
        if (!line) continue;
        let entry: IndexEntry & { kind: CaptureKind };
        try {
          entry = indexEntryOf(line);
        } catch (cause) {
          if (this.options.readOnly) continue;
          throw new BackendError(`${path} line ${number} is not a CDXJ line of this store`, {
            cause,
            code: ErrorCode.BACKEND_REFUSED,
          });
        }
        lines.push(line);
        this.remember(this.indexes[entry.kind], entry);
        ends.set(entry.filename, Math.max(ends.get(entry.filename) ?? 0, entry.end));
      }
      if (!cdxjLinesSorted(lines)) this.unsorted.add(name);
    }
    return ends;
  }

  put(pages: StoredPage[]): Promise<void> {
    return this.enqueue(pages.map((page) => ({ kind: 'page', page })));
  }

  putRevisits(revisits: Revisit[]): Promise<void> {
    return this.enqueue(revisits.map((revisit) => ({ kind: 'revisit', revisit })));
  }

  putRedirects(redirects: RedirectCapture[]): Promise<void> {
    return this.enqueue(redirects.map((redirect) => ({ kind: 'redirect', redirect })));
  }

  private enqueue(captures: Capture[]): Promise<void> {
    if (this.options.readOnly)
      return Promise.reject(
        new BackendError(`the WARC files in ${this.dir} are open read-only`, { code: ErrorCode.BACKEND_REFUSED }),
      );
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flushPending());
      this.pending.push({ captures, resolve, reject });
    });
  }

  private flushPending(): void {
    const batch = this.pending;
    this.pending = [];
    const work = this.writing.then(() => this.write(batch.flatMap((item) => item.captures)));
    this.writing = work.catch(() => undefined);
    work.then(
      () => batch.forEach((item) => item.resolve()),
      (error: unknown) => batch.forEach((item) => item.reject(error)),
    );
  }

  private async write(captures: Capture[]): Promise<void> {
    const fresh: Capture[] = [];
    const seen = new Set<string>();
    for (const capture of captures) {
      const { url, fetchedAt } = captured(capture);
      const key = `${capture.kind} ${fetchedAt} ${url}`;
      if (this.has(this.indexes[capture.kind], url, fetchedAt) || seen.has(key)) continue;
      seen.add(key);
      fresh.push(capture);
    }
    if (fresh.length === 0) return;
    const encoded = await this.encoder.encode(fresh.map(captureInput));
    const first = fresh[0]!;
    const file = await this.currentFile();
    const opening = file.size === 0 ? [this.warcinfo(file.name, first)] : [];
    let offset = file.size + (opening[0]?.length ?? 0);
    const lines: string[] = [];
    const entries: { entry: IndexEntry; kind: CaptureKind }[] = [];
    fresh.forEach((capture, i) => {
      const { bytes, recordLength, payloadDigest } = encoded[i]!;
      const { url, fetchedAt, httpStatus } = captured(capture);
      const entry = { url, fetchedAt, filename: file.name, offset, end: offset + bytes.length };
      entries.push({ entry, kind: capture.kind });
      lines.push(
        formatCdxjLine({
          key: archiveSurtKey(url),
          timestamp: cdxTimestamp(fetchedAt),
          fields: {
            url,
            mime: cdxjMime(capture),
            status: String(httpStatus),
            digest: cdxDigest(payloadDigest),
            length: String(recordLength),
            offset: String(offset),
            filename: file.name,
            fetchedAt,
            end: entry.end,
          },
        }),
      );
      offset = entry.end;
    });
    try {
      const data = Buffer.concat([...opening, ...encoded.map((capture) => capture.bytes)]);
      await file.handle.write(data, 0, data.length, null);
      file.size += data.length;
      await file.index.write(`${lines.join('\n')}\n`);
    } catch (cause) {
      throw new BackendError(`cannot write WARC data in ${this.dir}`, { cause });
    }
    for (const { entry, kind } of entries) this.remember(this.indexes[kind], entry);
    this.changed = true;
    if (file.size > this.options.maxFileBytes) await this.finishFile();
  }

  private warcinfo(filename: string, first: Capture): Buffer {
    return warcinfoRecord(
      {
        filename,
        date: new Date(),
        jobId: captured(first).jobId,
        operator: this.options.operator || null,
      },
      this.options.gzipLevel,
    );
  }

  async get(url: string, options: { versions?: number } = {}): Promise<StoredPage[]> {
    const out: StoredPage[] = [];
    for (const entry of (this.indexes.page.get(url) ?? []).slice(0, options.versions ?? 1)) {
      const { main, metadata } = await this.read(entry, 'response');
      const headEnd = main.block.indexOf('\r\n\r\n');
      const body = Buffer.from(main.block.subarray(headEnd + 4));
      const meta = JSON.parse(metadata.block.toString('utf8')) as Omit<StoredPage, 'body' | 'bodyEncoding'>;
      // Pages stored before they carried their Markdown or their request have none.
      const markdown: string | null | undefined = meta.markdown;
      const sent: Record<string, string> | undefined = meta.requestHeaders;
      out.push({
        ...meta,
        markdown: markdown ?? null,
        requestHeaders: sent ?? {},
        body,
        bodyEncoding: 'identity',
        bodyLength: body.length,
      });
    }
    return out;
  }

  async getRevisits(url: string, options: { versions?: number } = {}): Promise<Revisit[]> {
    const out: Revisit[] = [];
    for (const entry of (this.indexes.revisit.get(url) ?? []).slice(0, options.versions ?? 1)) {
      const { metadata } = await this.read(entry, 'revisit');
      out.push(JSON.parse(metadata.block.toString('utf8')) as Revisit);
    }
    return out;
  }

  async getRedirects(url: string, options: { versions?: number } = {}): Promise<RedirectCapture[]> {
    const out: RedirectCapture[] = [];
    for (const entry of (this.indexes.redirect.get(url) ?? []).slice(0, options.versions ?? 1)) {
      const { main, metadata } = await this.read(entry, 'response');
      const body = Buffer.from(main.block.subarray(main.block.indexOf('\r\n\r\n') + 4));
      out.push({ ...(JSON.parse(metadata.block.toString('utf8')) as Omit<RedirectCapture, 'body'>), body });
    }
    return out;
  }

  private async read(entry: IndexEntry, type: 'response' | 'revisit') {
    const handle = await open(join(this.dir, entry.filename), 'r');
    try {
      const buffer = Buffer.alloc(entry.end - entry.offset);
      await handle.read(buffer, 0, buffer.length, entry.offset);
      const records = parseWarcRecords(gunzipSync(buffer));
      const main = records.find((record) => record.headers.get('warc-type') === type);
      const metadata = records.find((record) => record.headers.get('warc-type') === 'metadata');
      if (!main || !metadata)
        throw new BackendError(`WARC records of ${entry.url} in ${entry.filename}@${entry.offset} are incomplete`, {
          code: ErrorCode.BACKEND_REFUSED,
        });
      return { main, metadata };
    } finally {
      await handle.close();
    }
  }

  async flush(): Promise<void> {
    if (this.pending.length > 0) this.flushPending();
    await this.writing;
    await this.file?.handle.datasync();
    await this.file?.index.datasync();
  }

  /** Finishes the open file (its index sorted) and merges every file's index into index.cdxj. */
  async close(): Promise<void> {
    await this.flush();
    try {
      if (!this.options.readOnly) {
        await this.finishFile();
        for (const name of this.unsorted) await sortCdxjFile(join(this.dir, name));
        this.unsorted.clear();
        if (this.changed) await this.mergeIndexes();
      }
    } finally {
      await this.file?.handle.close();
      await this.file?.index.close();
      this.file = null;
      await this.encoder.close();
    }
  }

  private async mergeIndexes(): Promise<void> {
    const indexes = readdirSync(this.dir)
      .filter((name) => WARC_FILE.test(name))
      .map((name) => join(this.dir, fileIndexName(name)))
      .filter((path) => existsSync(path));
    await mergeCdxjFiles(indexes, join(this.dir, MERGED_INDEX));
    this.changed = false;
  }

  private async finishFile(): Promise<void> {
    const file = this.file;
    if (!file) return;
    this.file = null;
    await file.handle.close();
    await file.index.close();
    await sortCdxjFile(join(this.dir, fileIndexName(file.name)));
    this.unsorted.delete(fileIndexName(file.name));
  }

  private async currentFile(): Promise<OpenFile> {
    if (this.file) return this.file;
    const name = `pages-${String(this.sequence++).padStart(5, '0')}.warc.gz`;
    const handle = await open(join(this.dir, name), 'a');
    const index = await open(join(this.dir, fileIndexName(name)), 'a');
    this.file = { handle, index, name, size: (await handle.stat()).size };
    return this.file;
  }

  private has(index: Map<string, IndexEntry[]>, url: string, fetchedAt: number): boolean {
    return index.get(url)?.some((entry) => entry.fetchedAt === fetchedAt) ?? false;
  }

  private remember(index: Map<string, IndexEntry[]>, entry: IndexEntry): void {
    let list = index.get(entry.url);
    if (!list) index.set(entry.url, (list = []));
    if (list.some((existing) => existing.fetchedAt === entry.fetchedAt)) return;
    list.push({
      url: entry.url,
      fetchedAt: entry.fetchedAt,
      filename: entry.filename,
      offset: entry.offset,
      end: entry.end,
    });
    list.sort((a, b) => b.fetchedAt - a.fetchedAt);
  }
}

/** A line of a file's index, as the store reads it back: pywb's fields and the two of its own. */
function indexEntryOf(line: string): IndexEntry & { kind: CaptureKind } {
  const { fields } = parseCdxjLine(line);
  const fetchedAt = Number(fields.fetchedAt);
  const offset = Number(fields.offset);
  const end = Number(fields.end);
  if (!Number.isFinite(fetchedAt) || !Number.isFinite(offset) || !(end > offset)) throw new SyntaxError('no extent');
  return {
    url: fields.url,
    fetchedAt,
    filename: fields.filename,
    offset,
    end,
    kind: cdxjCaptureKind(fields),
  };
}

/** The fields every kind of capture has. */
function captured(capture: Capture): Pick<Revisit, 'url' | 'jobId' | 'fetchedAt' | 'httpStatus'> {
  return capture.kind === 'page' ? capture.page : capture.kind === 'revisit' ? capture.revisit : capture.redirect;
}

/** The CDXJ `mime` of a capture: pywb tells a revisit by `warc/revisit`, a redirect by its status. */
function cdxjMime(capture: Capture): string {
  if (capture.kind === 'revisit') return 'warc/revisit';
  if (capture.kind === 'page') return cdxMime(capture.page.contentType);
  return cdxMime(capture.redirect.headers['content-type']);
}

/**
 * A capture is indexed only after its bytes are written, and its page's status is sent only after
 * both: bytes past the last indexed capture belong to pages whose outcome never reached the link
 * base, so they are fetched and written again. Such a tail (a record cut by a kill, or whole ones
 * whose index line was not written) is truncated to the end of the last indexed capture, which is
 * the end of a complete gzip member; a file with no indexed capture is removed.
 */
function cutUnindexedTail(path: string, indexedEnd: number): void {
  if (statSync(path).size <= indexedEnd) return;
  if (indexedEnd === 0) unlinkSync(path);
  else truncateSync(path, indexedEnd);
}

function reasonPhrase(status: number): string {
  const phrases: Record<number, string> = {
    200: 'OK',
    203: 'Non-Authoritative Information',
    206: 'Partial Content',
    301: 'Moved Permanently',
    302: 'Found',
    303: 'See Other',
    304: 'Not Modified',
    307: 'Temporary Redirect',
    308: 'Permanent Redirect',
  };
  return phrases[status] ?? 'Status';
}

/** The status line and the server's headers as received, Content-Length and Content-Encoding included. */
export function httpResponseHead(status: number, headers: Record<string, string>): string {
  const lines = [`HTTP/1.1 ${status} ${reasonPhrase(status)}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value.replace(/[\r\n]+/g, ' ')}`);
  return lines.join('\r\n');
}

/**
 * The request line and headers a response answered, as sent: Host is the one undici derives from the
 * URL. Null for a page stored before pages carried their request headers: no request is made up.
 */
function httpRequestHead(url: string, headers: Record<string, string> | undefined): string | null {
  if (!headers || Object.keys(headers).length === 0) return null;
  const parsed = new URL(url);
  const lines = [`GET ${parsed.pathname}${parsed.search} HTTP/1.1`, `host: ${parsed.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value.replace(/[\r\n]+/g, ' ')}`);
  return lines.join('\r\n');
}

/** The strings and bytes of a capture's records; the encoder thread digests and compresses them. */
function captureInput(capture: Capture): WarcCaptureInput {
  if (capture.kind === 'revisit') {
    const { revisit } = capture;
    return {
      kind: 'revisit',
      url: revisit.url,
      fetchedAt: revisit.fetchedAt,
      httpHead: httpResponseHead(revisit.httpStatus, revisit.headers),
      metadata: JSON.stringify(revisit),
      payloadDigest: revisit.payloadDigest,
      refersToUrl: revisit.refersToUrl,
      refersToDate: revisit.refersToDate,
    };
  }
  if (capture.kind === 'redirect') {
    const { body, ...meta } = capture.redirect;
    return {
      kind: 'page',
      url: meta.url,
      fetchedAt: meta.fetchedAt,
      httpHead: httpResponseHead(meta.httpStatus, meta.headers),
      body: new Uint8Array(body),
      truncated: meta.truncated ? 'length' : null,
      httpRequest: httpRequestHead(meta.url, meta.requestHeaders),
      metadata: JSON.stringify(meta),
    };
  }
  const { page } = capture;
  const body = rawBody(page.body, page.bodyEncoding);
  const { body: _body, bodyEncoding: _encoding, ...meta } = page;
  // A copy of its own, so the thread gets exactly the body (a view may sit in a larger buffer) and it can be moved.
  return {
    kind: 'page',
    url: page.url,
    fetchedAt: page.fetchedAt,
    // Evidence of what was served; WARC-Truncated says when the block holds less than that.
    httpHead: httpResponseHead(page.httpStatus, page.headers),
    body: new Uint8Array(body),
    // The fetcher cuts a body only at its size cap (a deadline ends a fetch as a timeout instead).
    truncated: page.truncated ? 'length' : null,
    httpRequest: httpRequestHead(page.url, page.requestHeaders),
    metadata: JSON.stringify(meta),
  };
}
