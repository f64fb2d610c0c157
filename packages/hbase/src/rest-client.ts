import { redactUrl } from '@crawler/core';
import { httpError, networkError, type RestCallContext } from './hbase-errors.js';

/** One cell as the gateway stores it; `column` is family:qualifier, `timestamp` in ms. */
export interface HbaseCell {
  column: string;
  timestamp: number;
  value: Buffer;
}

export interface HbaseRow {
  key: string;
  cells: HbaseCell[];
}

/** Column family attributes as the gateway spells them (VERSIONS, BLOOMFILTER, ...), values as strings. */
export interface ColumnFamilySchema {
  name: string;
  [attribute: string]: string;
}

export interface TableSchema {
  name: string;
  ColumnSchema: ColumnFamilySchema[];
}

export interface HbaseRestClientOptions {
  /** http(s)://[user:password@]host:port of the gateway. */
  url: string;
  requestTimeoutMs: number;
}

/** The HBase REST gateway calls the page store needs, binary-safe (JSON with base64 keys and values). */
export interface HbaseRestClient {
  /** The gateway URL without credentials, for logs. */
  readonly endpoint: string;
  /** HBase version of the cluster behind the gateway: proves the gateway reaches HBase. */
  clusterVersion(): Promise<string>;
  getSchema(table: string): Promise<TableSchema | null>;
  /** PUT schema: creates the table. On an existing table the gateway disables it and replaces its schema, so check first. */
  createTable(schema: TableSchema): Promise<void>;
  /** POST schema: adds or modifies the listed families (the gateway disables the table meanwhile). */
  alterFamilies(schema: TableSchema): Promise<void>;
  dropTable(table: string): Promise<void>;
  /** Any number of rows and cells in one request; each row is applied atomically by HBase. */
  putRows(table: string, rows: readonly HbaseRow[]): Promise<void>;
  /** Cells of one row, per column newest first; [] when the row does not exist. */
  getRow(table: string, row: string, options: { column: string; versions: number }): Promise<HbaseCell[]>;
  /**
   * Rows in [startRow, endRow) in key order (no bound where one is left out): the newest
   * `maxVersions` (default 1) cells of each column with a timestamp in [startTime, endTime).
   */
  scan(
    table: string,
    options: {
      startRow?: string;
      endRow?: string;
      column?: string;
      limit?: number;
      maxVersions?: number;
      startTime?: number;
      endTime?: number;
    },
  ): Promise<HbaseRow[]>;
}

interface JsonCell {
  column: string;
  timestamp?: number;
  $: string;
}
interface JsonCellSet {
  Row?: { key: string; Cell: JsonCell[] }[];
}

/**
 * A row key in a URL path. encodeURIComponent leaves `*` alone, which the gateway reads as a
 * prefix glob; everything else it leaves is safe (checked for all of ASCII 32-126).
 */
export function encodeRowKey(key: string): string {
  return encodeURIComponent(key).replace(/\*/g, '%2A');
}

const b64 = (value: string | Buffer) =>
  (typeof value === 'string' ? Buffer.from(value, 'utf8') : value).toString('base64');

export function cellSetJson(rows: readonly HbaseRow[]): string {
  return JSON.stringify({
    Row: rows.map((row) => ({
      key: b64(row.key),
      Cell: row.cells.map((cell) => ({ column: b64(cell.column), timestamp: cell.timestamp, $: b64(cell.value) })),
    })),
  });
}

export function parseCellSet(text: string): HbaseRow[] {
  const parsed = JSON.parse(text) as JsonCellSet;
  return (parsed.Row ?? []).map((row) => ({
    key: Buffer.from(row.key, 'base64').toString('utf8'),
    cells: row.Cell.map((cell) => ({
      column: Buffer.from(cell.column, 'base64').toString('utf8'),
      timestamp: cell.timestamp ?? 0,
      value: Buffer.from(cell.$, 'base64'),
    })),
  }));
}

export function createHbaseRestClient(options: HbaseRestClientOptions): HbaseRestClient {
  const parsed = new URL(options.url);
  // fetch refuses URLs with credentials; they travel as a Basic header instead.
  const authorization = parsed.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`
    : undefined;
  parsed.username = '';
  parsed.password = '';
  const base = parsed.toString().replace(/\/+$/, '');
  const endpoint = redactUrl(base);

  async function call(
    context: RestCallContext,
    method: string,
    path: string,
    init: { body?: string; accept?: string; allow404?: boolean } = {},
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { accept: init.accept ?? 'application/json' };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (authorization) headers.authorization = authorization;
    let response: Response;
    let text: string;
    try {
      // One deadline for connect, headers and body: the gateway's own HBase client retries a down region server for minutes.
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: init.body,
        signal: AbortSignal.timeout(options.requestTimeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw networkError(context, endpoint, error);
    }
    if (response.ok || (init.allow404 && response.status === 404)) return { status: response.status, text };
    throw httpError(context, response.status, text);
  }

  const tablePath = (table: string) => `/${encodeURIComponent(table)}`;

  return {
    endpoint,
    async clusterVersion() {
      const { text } = await call({ operation: 'version check' }, 'GET', '/version/cluster');
      return (JSON.parse(text) as { Version: string }).Version;
    },
    async getSchema(table) {
      const { status, text } = await call({ operation: 'get schema', table }, 'GET', `${tablePath(table)}/schema`, {
        allow404: true,
      });
      return status === 404 ? null : (JSON.parse(text) as TableSchema);
    },
    async createTable(schema) {
      await call({ operation: 'create table', table: schema.name }, 'PUT', `${tablePath(schema.name)}/schema`, {
        body: JSON.stringify(schema),
      });
    },
    async alterFamilies(schema) {
      await call({ operation: 'alter families', table: schema.name }, 'POST', `${tablePath(schema.name)}/schema`, {
        body: JSON.stringify(schema),
      });
    },
    async dropTable(table) {
      await call({ operation: 'drop table', table }, 'DELETE', `${tablePath(table)}/schema`);
    },
    async putRows(table, rows) {
      if (rows.length === 0) return;
      // The row in the path is ignored when the cell set names its rows; a fixed one keeps the request line short.
      await call(
        { operation: `put of ${rows.length} row(s)`, table, row: rows[0]!.key },
        'PUT',
        `${tablePath(table)}/batch`,
        { body: cellSetJson(rows) },
      );
    },
    async getRow(table, row, { column, versions }) {
      const { status, text } = await call(
        { operation: 'get', table, row },
        'GET',
        `${tablePath(table)}/${encodeRowKey(row)}/${encodeURIComponent(column)}?v=${versions}`,
        { allow404: true },
      );
      return status === 404 ? [] : (parseCellSet(text)[0]?.cells ?? []);
    },
    async scan(table, { startRow, endRow, column, limit, maxVersions, startTime, endTime }) {
      const query = new URLSearchParams();
      if (startRow) query.set('startrow', startRow);
      if (endRow) query.set('endrow', endRow);
      if (column) query.set('column', column);
      if (limit !== undefined) query.set('limit', String(limit));
      if (maxVersions !== undefined) query.set('maxversions', String(maxVersions));
      if (startTime !== undefined) query.set('starttime', String(startTime));
      if (endTime !== undefined) query.set('endtime', String(endTime));
      const { status, text } = await call(
        { operation: 'scan', table, row: startRow ?? '' },
        'GET',
        `${tablePath(table)}/*?${query}`,
        { allow404: true },
      );
      return status === 404 || text.trim() === '' ? [] : parseCellSet(text);
    },
  };
}
