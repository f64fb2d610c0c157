import { gzipMember } from './gzip-member.js';
import { serializeWarcRecord, sha1Digest } from './warc-record.js';

/**
 * What one page's two WARC records are made of, prepared on the event loop (cheap string work) so
 * the costly part, digests and gzip, can run on another thread: only strings and bytes cross.
 */
export interface WarcPageInput {
  url: string;
  fetchedAt: number;
  /** The HTTP status line and headers, CRLF-separated, without the blank line. */
  httpHead: string;
  /** The decoded payload. */
  body: Uint8Array;
  /** Why the payload is shorter than what was served (WARC 1.1 `WARC-Truncated`: length, time...), or null. */
  truncated: string | null;
  /** The metadata record's JSON. */
  metadata: string;
}

/** Two gzip members: the response record (HTTP head + body) and its metadata record. */
export function encodeWarcPage(page: WarcPageInput, gzipLevel: number): Buffer {
  const date = new Date(page.fetchedAt);
  const body = Buffer.from(page.body.buffer, page.body.byteOffset, page.body.byteLength);
  const response = serializeWarcRecord({
    type: 'response',
    targetUri: page.url,
    date,
    contentType: 'application/http; msgtype=response',
    block: Buffer.concat([Buffer.from(`${page.httpHead}\r\n\r\n`, 'latin1'), body]),
    headers: {
      'WARC-Payload-Digest': sha1Digest(body),
      ...(page.truncated ? { 'WARC-Truncated': page.truncated } : {}),
    },
  });
  const metadata = serializeWarcRecord({
    type: 'metadata',
    targetUri: page.url,
    date,
    contentType: 'application/json',
    block: Buffer.from(page.metadata),
    headers: { 'WARC-Concurrent-To': response.recordId },
  });
  return Buffer.concat([gzipMember(response.bytes, gzipLevel), gzipMember(metadata.bytes, gzipLevel)]);
}
