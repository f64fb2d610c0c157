import type { RedirectCapture, Revisit, StoredPage } from '@crawler/core';
import type { HbaseConfig } from './hbase-settings.js';
import {
  decodeMeta,
  decodePage,
  decodeRedirect,
  decodeRevisit,
  groupVersions,
  PAGE_FAMILY,
  REDIRECT_QUALIFIER,
  REVISIT_QUALIFIER,
} from './page-cells.js';
import type { HbaseRestClient } from './rest-client.js';

export interface CaptureRange {
  /** Only this crawl job's captures; null: every job's. */
  jobId: string | null;
  /** Fetch times in [start, end), epoch ms; null: unbounded. */
  start: number | null;
  end: number | null;
}

/** Rows per scan request: a row holds up to HBASE_MAX_VERSIONS bodies. */
const ROWS_PER_REQUEST = 25;

/**
 * Every page version, revisit and redirect the table keeps, in row (SURT) order, a batch per scan request:
 * what `crawler export warc --from-stack` writes out. The time range is HBase's own (cell
 * timestamps are fetch times), so a narrow range reads little; the job is filtered here.
 */
export async function* scanCaptures(
  client: HbaseRestClient,
  config: HbaseConfig,
  range: CaptureRange,
): AsyncGenerator<{ pages: StoredPage[]; revisits: Revisit[]; redirects: RedirectCapture[] }> {
  let startRow = '';
  for (;;) {
    const rows = await client.scan(config.table, {
      startRow,
      column: PAGE_FAMILY,
      limit: ROWS_PER_REQUEST,
      maxVersions: config.maxVersions,
      ...(range.start !== null ? { startTime: range.start } : {}),
      ...(range.end !== null ? { endTime: range.end } : {}),
    });
    const pages: StoredPage[] = [];
    const revisits: Revisit[] = [];
    const redirects: RedirectCapture[] = [];
    for (const row of rows) {
      const what = `table ${config.table} row ${JSON.stringify(row.key)}`;
      for (const version of groupVersions(row.cells)) {
        const at = `${what} version ${version.timestamp}`;
        const meta = await decodeMeta(version, at);
        if (range.jobId === null || meta.jobId === range.jobId) pages.push(await decodePage(version, meta, at));
      }
      for (const cell of row.cells.filter((candidate) => candidate.column === `${PAGE_FAMILY}:${REVISIT_QUALIFIER}`)) {
        const revisit = await decodeRevisit(cell.value, what);
        if (range.jobId === null || revisit.jobId === range.jobId) revisits.push(revisit);
      }
      for (const cell of row.cells.filter((candidate) => candidate.column === `${PAGE_FAMILY}:${REDIRECT_QUALIFIER}`)) {
        const redirect = await decodeRedirect(cell.value, what);
        if (range.jobId === null || redirect.jobId === range.jobId) redirects.push(redirect);
      }
    }
    if (pages.length + revisits.length + redirects.length > 0) yield { pages, revisits, redirects };
    if (rows.length < ROWS_PER_REQUEST) return;
    // The next row key after the last one read.
    startRow = `${rows[rows.length - 1]!.key}\u0000`;
  }
}
