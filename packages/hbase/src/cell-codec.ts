import { gunzipBytes, gzipBytes } from '@crawler/core';
import { CellEncodingError } from './hbase-errors.js';

/**
 * First byte of every stored cell: how the rest is encoded, so a read never guesses. New
 * encodings take new values; existing cells stay readable.
 */
export const CellEncoding = { identity: 0x00, gzip: 0x01 } as const;

export interface CellEncodeOptions {
  /** Payloads longer than this are gzip-compressed. */
  compressMinBytes: number;
  /** The payload gzip-compressed already (a body that arrived with bodyEncoding gzip): reused, not recompressed. */
  gzipped?: Buffer;
}

function withHeader(encoding: number, payload: Buffer): Buffer {
  const cell = Buffer.allocUnsafe(payload.length + 1);
  cell[0] = encoding;
  payload.copy(cell, 1);
  return cell;
}

/** Header byte + payload; large payloads are compressed on the libuv thread pool, off the event loop. */
export async function encodeCell(payload: Buffer, options: CellEncodeOptions): Promise<Buffer> {
  if (payload.length <= options.compressMinBytes) return withHeader(CellEncoding.identity, payload);
  const compressed = options.gzipped ?? (await gzipBytes(payload));
  // Already-compressed media (images, archives) grow under gzip; those are stored as they are.
  return compressed.length < payload.length
    ? withHeader(CellEncoding.gzip, compressed)
    : withHeader(CellEncoding.identity, payload);
}

/** The payload of a stored cell; `what` names the cell in errors. */
export async function decodeCell(cell: Buffer, what: string): Promise<Buffer> {
  if (cell.length === 0) throw new CellEncodingError(`${what}: empty cell, no encoding byte`);
  const payload = cell.subarray(1);
  switch (cell[0]) {
    case CellEncoding.identity:
      return payload;
    case CellEncoding.gzip:
      return gunzipOrThrow(payload, what);
    default:
      throw new CellEncodingError(`${what}: unknown cell encoding byte 0x${cell[0]!.toString(16).padStart(2, '0')}`);
  }
}

export async function gunzipOrThrow(data: Buffer, what: string): Promise<Buffer> {
  try {
    return await gunzipBytes(data);
  } catch (cause) {
    throw new CellEncodingError(`${what}: corrupt gzip data (${(cause as Error).message})`, { cause });
  }
}
