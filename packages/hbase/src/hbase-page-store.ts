import {
  BackendError,
  ErrorCode,
  surtKey,
  type Logger,
  type PageStore,
  type RedirectCapture,
  type Revisit,
  type StoredPage,
} from '@crawler/core';
import { CellTooLargeError } from './hbase-errors.js';
import type { HbaseConfig } from './hbase-settings.js';
import {
  decodeMeta,
  decodePage,
  decodeRedirect,
  decodeRevisit,
  encodePage,
  encodeRedirect,
  encodeRevisit,
  groupVersions,
  PAGE_FAMILY,
  REDIRECT_QUALIFIER,
  REVISIT_QUALIFIER,
} from './page-cells.js';
import { ensurePageTable } from './page-table.js';
import { createHbaseRestClient, type HbaseRestClient, type HbaseRow } from './rest-client.js';

/** Bytes HBase adds to every cell beside row, column and value (lengths, timestamp, type). */
const CELL_OVERHEAD = 20;

/** Row key of a page: the SURT of its URL, so one site's pages sort together. Puts and gets derive it the same way. */
export function pageRowKey(url: string): string {
  return surtKey(url);
}

/** Rows in order, cut where the next row would take a request past `maxBytes` (a row is never split). */
export function splitRows(rows: readonly HbaseRow[], maxBytes: number): HbaseRow[][] {
  const batches: HbaseRow[][] = [];
  let current: HbaseRow[] = [];
  let size = 0;
  for (const row of rows) {
    const rowBytes = row.cells.reduce((sum, cell) => sum + cell.value.length, 0);
    if (current.length > 0 && size + rowBytes > maxBytes) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(row);
    size += rowBytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

class HbasePageStore implements PageStore {
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly client: HbaseRestClient,
    private readonly config: HbaseConfig,
    /** VERSIONS of the page family as the table has it. */
    private readonly tableVersions: number,
    private readonly log: Logger,
  ) {}

  put(pages: StoredPage[]): Promise<void> {
    return this.track(this.write(pages));
  }

  private async write(pages: StoredPage[]): Promise<void> {
    this.assertOpen();
    if (pages.length === 0) return;
    const started = performance.now();
    const rows = await Promise.all(pages.map((page) => this.toRow(page)));
    const requests = await this.putRows(rows);
    const bytes = rows.reduce((sum, row) => sum + row.cells.reduce((cells, cell) => cells + cell.value.length, 0), 0);
    this.log.debug(
      { pages: pages.length, requests, bytes, ms: Math.round(performance.now() - started) },
      'stored pages',
    );
  }

  /** Cell timestamp = fetchedAt: a redelivered page rewrites the same cells, so a put is idempotent by construction. */
  private async toRow(page: StoredPage): Promise<HbaseRow> {
    const key = pageRowKey(page.url);
    const cells = await encodePage(page, this.config.compressMinBytes);
    for (const cell of cells) {
      const size = key.length + PAGE_FAMILY.length + cell.qualifier.length + cell.value.length + CELL_OVERHEAD;
      if (size > this.config.maxCellBytes) {
        throw new CellTooLargeError(
          `page ${page.url} cannot be stored in table ${this.config.table} (row ${JSON.stringify(key)}): cell ${PAGE_FAMILY}:${cell.qualifier} is ${size} bytes as stored, over HBASE_MAX_CELL_BYTES=${this.config.maxCellBytes} (gzip is applied already where it makes a cell smaller)`,
        );
      }
    }
    return {
      key,
      cells: cells.map((cell) => ({
        column: `${PAGE_FAMILY}:${cell.qualifier}`,
        timestamp: page.fetchedAt,
        value: cell.value,
      })),
    };
  }

  putRevisits(revisits: Revisit[]): Promise<void> {
    return this.track(
      this.writeSingleCells(revisits, REVISIT_QUALIFIER, (revisit) =>
        encodeRevisit(revisit, this.config.compressMinBytes),
      ),
    );
  }

  putRedirects(redirects: RedirectCapture[]): Promise<void> {
    return this.track(
      this.writeSingleCells(redirects, REDIRECT_QUALIFIER, (redirect) =>
        encodeRedirect(redirect, this.config.compressMinBytes),
      ),
    );
  }

  /** Captures of one cell each; cell timestamp = fetchedAt, as for pages: a redelivered one rewrites the same cell. */
  private async writeSingleCells<T extends { url: string; fetchedAt: number }>(
    captures: T[],
    qualifier: string,
    encode: (capture: T) => Promise<Buffer>,
  ): Promise<void> {
    this.assertOpen();
    if (captures.length === 0) return;
    const rows = await Promise.all(
      captures.map(async (capture) => ({
        key: pageRowKey(capture.url),
        cells: [{ column: `${PAGE_FAMILY}:${qualifier}`, timestamp: capture.fetchedAt, value: await encode(capture) }],
      })),
    );
    await this.putRows(rows);
  }

  /** Rows in requests of at most HBASE_MAX_REQUEST_BYTES, one at a time: the gateway holds each whole request in its heap. */
  private async putRows(rows: HbaseRow[]): Promise<number> {
    const batches = splitRows(rows, this.config.maxRequestBytes);
    for (const batch of batches) await this.client.putRows(this.config.table, batch);
    return batches.length;
  }

  getRevisits(url: string, options: { versions?: number } = {}): Promise<Revisit[]> {
    return this.track(this.readSingleCells(url, Math.floor(options.versions ?? 1), REVISIT_QUALIFIER, decodeRevisit));
  }

  getRedirects(url: string, options: { versions?: number } = {}): Promise<RedirectCapture[]> {
    return this.track(this.readSingleCells(url, Math.floor(options.versions ?? 1), REDIRECT_QUALIFIER, decodeRedirect));
  }

  private async readSingleCells<T extends { url: string }>(
    url: string,
    wanted: number,
    qualifier: string,
    decode: (cell: Buffer, what: string) => Promise<T>,
  ): Promise<T[]> {
    this.assertOpen();
    if (wanted < 1) return [];
    const row = pageRowKey(url);
    // The other scheme's captures share the row: read all the table keeps, then keep this URL's.
    const cells = await this.client.getRow(this.config.table, row, {
      column: `${PAGE_FAMILY}:${qualifier}`,
      versions: this.tableVersions,
    });
    const found: T[] = [];
    for (const cell of [...cells].sort((a, b) => b.timestamp - a.timestamp)) {
      const capture = await decode(cell.value, `table ${this.config.table} row ${JSON.stringify(row)}`);
      if (capture.url === url) found.push(capture);
    }
    return found.slice(0, wanted);
  }

  get(url: string, options: { versions?: number } = {}): Promise<StoredPage[]> {
    return this.track(this.read(url, Math.floor(options.versions ?? 1)));
  }

  private async read(url: string, wanted: number): Promise<StoredPage[]> {
    this.assertOpen();
    if (wanted < 1) return [];
    const row = pageRowKey(url);
    const first = await this.readRow(url, row, wanted);
    // http:// and https:// of a page share a SURT row (as in CDX indexes) and only the asked
    // URL's versions are returned; when the other scheme's took some of the first read, read all.
    if (first.pages.length < wanted && first.skipped > 0 && first.read === wanted && this.tableVersions > wanted) {
      return (await this.readRow(url, row, this.tableVersions)).pages.slice(0, wanted);
    }
    return first.pages;
  }

  private async readRow(
    url: string,
    row: string,
    versions: number,
  ): Promise<{ pages: StoredPage[]; read: number; skipped: number }> {
    const cells = await this.client.getRow(this.config.table, row, { column: PAGE_FAMILY, versions });
    const found = groupVersions(cells);
    const pages: StoredPage[] = [];
    let skipped = 0;
    for (const version of found) {
      const what = `table ${this.config.table} row ${JSON.stringify(row)} version ${version.timestamp}`;
      const meta = await decodeMeta(version, what);
      if (meta.url !== url) {
        skipped++;
        continue;
      }
      if (pages.length < versions) pages.push(await decodePage(version, meta, what));
    }
    return { pages, read: found.length, skipped };
  }

  /** Every write is acknowledged by HBase (WAL) before put resolves; flush only waits for the calls in flight. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    this.log.debug('closed');
  }

  private assertOpen(): void {
    if (this.closed)
      throw new BackendError(`hbase page store on table ${this.config.table} is closed`, {
        code: ErrorCode.BACKEND_REFUSED,
      });
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => this.inFlight.delete(work);
    work.then(forget, forget);
    return work;
  }
}

/**
 * PageStore on HBase through its REST gateway: one row per page (key = SURT of the URL), one
 * column family whose versions are the fetches (cell timestamp = fetchedAt). Creates the table
 * when missing. Why REST and not hbase-rpc-client: see the package README.
 */
export async function createHbasePageStore(config: HbaseConfig, logger: Logger): Promise<PageStore> {
  const log = logger.child({ component: 'hbase-page-store', table: config.table });
  const client = createHbaseRestClient({ url: config.restUrl, requestTimeoutMs: config.requestTimeoutMs });
  const hbaseVersion = await client.clusterVersion();
  const table = await ensurePageTable(client, config.table, config.maxVersions, log);
  log.info(
    { gateway: client.endpoint, hbaseVersion, table: config.table, versions: table.versions, action: table.action },
    'hbase page store ready',
  );
  return new HbasePageStore(client, config, table.versions, log);
}
