import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw, constants } from 'node:zlib';

/** What requests offer: the codings decodeContent can decode. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

export interface CappedBody {
  body: Buffer;
  truncated: boolean;
}

/** Reads a stream up to `cap` bytes; past it, stops reading and flags the body as truncated. */
export async function readCapped(
  stream: AsyncIterable<Buffer> & { destroy?: (error?: Error) => void },
  cap: number,
): Promise<CappedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size + chunk.length > cap) {
      chunks.push(chunk.subarray(0, cap - size));
      size = cap;
      stream.destroy?.();
      return { body: Buffer.concat(chunks, size), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), truncated: false };
}

/**
 * Decodes Content-Encoding (gzip, deflate, br, also stacked) without ever holding more than `cap`
 * decoded bytes: a gzip bomb yields a truncated body, not an exhausted heap.
 */
export async function decodeContent(
  raw: Buffer,
  contentEncoding: string | undefined,
  cap: number,
): Promise<CappedBody & { encoding: string }> {
  const codings = (contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding && coding !== 'identity');
  let current: CappedBody = { body: raw, truncated: false };
  for (const coding of codings.reverse()) {
    const decoder = decoderFor(coding, current.body);
    if (!decoder) return { ...current, encoding: `unsupported:${coding}` };
    const truncatedBefore = current.truncated;
    decoder.end(current.body);
    current = await readCapped(decoder as unknown as AsyncIterable<Buffer> & { destroy: () => void }, cap).catch(
      () => ({ body: Buffer.alloc(0), truncated: true }),
    );
    current.truncated ||= truncatedBefore;
  }
  return { ...current, encoding: codings.length > 0 ? codings.join(',') : 'identity' };
}

function decoderFor(coding: string, body: Buffer): Transform | null {
  // SYNC_FLUSH tolerates a body cut short (by our own cap or the server): we keep what inflated.
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
  if (coding === 'deflate')
    return hasZlibHeader(body)
      ? createInflate({ finishFlush: constants.Z_SYNC_FLUSH })
      : createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH });
  if (coding === 'br') return createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH });
  return null;
}

/** "deflate" is zlib-wrapped by the standard, but some servers send raw DEFLATE; browsers accept both. */
function hasZlibHeader(body: Buffer): boolean {
  return body.length >= 2 && (body[0]! & 0x0f) === 8 && ((body[0]! << 8) | body[1]!) % 31 === 0;
}
