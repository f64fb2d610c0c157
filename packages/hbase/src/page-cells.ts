import type { RedirectCapture, Revisit, StoredPage } from '@crawler/core';
import { decodeCell, encodeCell, gunzipOrThrow } from './cell-codec.js';
import { CellEncodingError } from './hbase-errors.js';
import type { HbaseCell } from './rest-client.js';

/** One column family holds the page; its VERSIONS are the fetches kept. */
export const PAGE_FAMILY = 'p';

/**
 * A page version is five cells with the same timestamp (its fetchedAt). Body, text and Markdown
 * live apart from the small metadata, so a reader that needs only the fields skips the large
 * cells. A version stored before pages had Markdown has no markdown cell.
 */
export const PageQualifier = {
  body: 'body',
  headers: 'headers',
  text: 'text',
  markdown: 'markdown',
  meta: 'meta',
} as const;
export type PageQualifier = (typeof PageQualifier)[keyof typeof PageQualifier];
const QUALIFIERS = new Set<string>(Object.values(PageQualifier));

/** Everything but the body, headers, text and Markdown, as stored in the `meta` cell. */
export type PageMeta = Omit<StoredPage, 'body' | 'bodyEncoding' | 'bodyLength' | 'headers' | 'text' | 'markdown'>;

export interface PageCell {
  qualifier: PageQualifier;
  value: Buffer;
}

export interface PageVersion {
  timestamp: number;
  cells: Map<PageQualifier, Buffer>;
}

/** The cells of one page; a gzip body is checked (and decoded) here, so a corrupt one is refused at write, not found at read. */
export async function encodePage(page: StoredPage, compressMinBytes: number): Promise<PageCell[]> {
  const { body, bodyEncoding, bodyLength: _length, headers, text, markdown, ...meta } = page;
  let bodyCell: Buffer;
  if (bodyEncoding === 'gzip') {
    const decoded = await gunzipOrThrow(body, `body of ${page.url}`);
    bodyCell = await encodeCell(decoded, { compressMinBytes, gzipped: body });
  } else if (bodyEncoding === 'identity') {
    bodyCell = await encodeCell(body, { compressMinBytes });
  } else {
    throw new CellEncodingError(
      `body of ${page.url}: unsupported bodyEncoding ${JSON.stringify(bodyEncoding)} (expected identity or gzip)`,
    );
  }
  const [headersCell, textCell, markdownCell, metaCell] = await Promise.all([
    encodeCell(Buffer.from(JSON.stringify(headers)), { compressMinBytes }),
    encodeCell(Buffer.from(text), { compressMinBytes }),
    markdown === null ? null : encodeCell(Buffer.from(markdown), { compressMinBytes }),
    encodeCell(Buffer.from(JSON.stringify(meta satisfies PageMeta)), { compressMinBytes }),
  ]);
  return [
    { qualifier: PageQualifier.body, value: bodyCell },
    { qualifier: PageQualifier.headers, value: headersCell },
    { qualifier: PageQualifier.text, value: textCell },
    ...(markdownCell === null ? [] : [{ qualifier: PageQualifier.markdown, value: markdownCell }]),
    { qualifier: PageQualifier.meta, value: metaCell },
  ];
}

/**
 * A revisit (a capture whose payload an earlier one had) is one cell of its own in the page family,
 * timestamp = its fetch time; page reads skip it, so it never counts as a page version.
 */
export const REVISIT_QUALIFIER = 'revisit';

export async function encodeRevisit(revisit: Revisit, compressMinBytes: number): Promise<Buffer> {
  return encodeCell(Buffer.from(JSON.stringify(revisit)), { compressMinBytes });
}

export function decodeRevisit(cell: Buffer, what: string): Promise<Revisit> {
  return decodeJson<Revisit>(cell, `${what} ${PAGE_FAMILY}:${REVISIT_QUALIFIER}`);
}

/**
 * A redirect the crawler followed is one cell of its own too, timestamp = its fetch time: JSON with
 * the (short) body in base64. Page reads skip it, as they skip revisits.
 */
export const REDIRECT_QUALIFIER = 'redirect';

export async function encodeRedirect(redirect: RedirectCapture, compressMinBytes: number): Promise<Buffer> {
  const json = JSON.stringify({ ...redirect, body: redirect.body.toString('base64') });
  return encodeCell(Buffer.from(json), { compressMinBytes });
}

export async function decodeRedirect(cell: Buffer, what: string): Promise<RedirectCapture> {
  const stored = await decodeJson<Omit<RedirectCapture, 'body'> & { body: string }>(
    cell,
    `${what} ${PAGE_FAMILY}:${REDIRECT_QUALIFIER}`,
  );
  return { ...stored, body: Buffer.from(stored.body, 'base64') };
}

/** Cells of one row grouped into versions, newest first; columns outside the page family are ignored. */
export function groupVersions(cells: readonly HbaseCell[]): PageVersion[] {
  const byTimestamp = new Map<number, Map<PageQualifier, Buffer>>();
  for (const cell of cells) {
    const separator = cell.column.indexOf(':');
    if (cell.column.slice(0, separator) !== PAGE_FAMILY) continue;
    const qualifier = cell.column.slice(separator + 1);
    if (!QUALIFIERS.has(qualifier)) continue;
    let version = byTimestamp.get(cell.timestamp);
    if (!version) byTimestamp.set(cell.timestamp, (version = new Map()));
    version.set(qualifier as PageQualifier, cell.value);
  }
  return [...byTimestamp.entries()]
    .sort(([a], [b]) => b - a)
    .map(([timestamp, versionCells]) => ({ timestamp, cells: versionCells }));
}

async function decodeJson<T>(cell: Buffer, what: string): Promise<T> {
  const bytes = await decodeCell(cell, what);
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch (cause) {
    throw new CellEncodingError(`${what}: not JSON (${(cause as Error).message})`, { cause });
  }
}

function required(version: PageVersion, qualifier: PageQualifier, what: string): Buffer {
  const cell = version.cells.get(qualifier);
  if (!cell) throw new CellEncodingError(`${what}: cell ${PAGE_FAMILY}:${qualifier} is missing`);
  return cell;
}

/** The metadata of a version alone (cheap): enough to tell which URL it belongs to. */
export function decodeMeta(version: PageVersion, what: string): Promise<PageMeta> {
  return decodeJson<PageMeta>(required(version, PageQualifier.meta, what), `${what} ${PAGE_FAMILY}:meta`);
}

/** A whole page from its version's cells, body decoded (`bodyEncoding: 'identity'`). */
export async function decodePage(version: PageVersion, meta: PageMeta, what: string): Promise<StoredPage> {
  const markdownCell = version.cells.get(PageQualifier.markdown);
  const [body, headers, text, markdown] = await Promise.all([
    decodeCell(required(version, PageQualifier.body, what), `${what} ${PAGE_FAMILY}:body`),
    decodeJson<Record<string, string>>(
      required(version, PageQualifier.headers, what),
      `${what} ${PAGE_FAMILY}:headers`,
    ),
    decodeCell(required(version, PageQualifier.text, what), `${what} ${PAGE_FAMILY}:text`),
    markdownCell ? decodeCell(markdownCell, `${what} ${PAGE_FAMILY}:markdown`) : null,
  ]);
  // Rows written before pages carried their request have none.
  const sent: Record<string, string> | undefined = meta.requestHeaders;
  return {
    ...meta,
    requestHeaders: sent ?? {},
    headers,
    text: text.toString('utf8'),
    markdown: markdown?.toString('utf8') ?? null,
    body,
    bodyEncoding: 'identity',
    bodyLength: body.length,
  };
}
