import { sha1Digest } from '@crawler/core';
import { gzipMember } from './gzip-member.js';
import { serializeWarcRecord } from './warc-record.js';

/** WARC 1.1's profile of a revisit whose payload is byte for byte the original's. */
export const IDENTICAL_PAYLOAD_PROFILE = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';

/**
 * What one capture's WARC records are made of, prepared on the event loop (cheap string work) so
 * the costly part, digests and gzip, can run on another thread: only strings and bytes cross.
 */
interface CaptureInput {
  url: string;
  fetchedAt: number;
  /** The HTTP status line and headers, CRLF-separated, without the blank line. */
  httpHead: string;
  /** The metadata record's JSON (the crawler's fields). */
  metadata: string;
}

export interface WarcPageInput extends CaptureInput {
  kind: 'page';
  /** The decoded payload. */
  body: Uint8Array;
  /** Why the payload is shorter than what was served (WARC 1.1 `WARC-Truncated`: length, time...), or null. */
  truncated: string | null;
  /** The HTTP request line and headers the response answered, CRLF-separated, or null when not known. */
  httpRequest: string | null;
}

export interface WarcRevisitInput extends CaptureInput {
  kind: 'revisit';
  payloadDigest: string;
  refersToUrl: string;
  refersToDate: number;
}

export type WarcCaptureInput = WarcPageInput | WarcRevisitInput;

export interface EncodedCapture {
  /** The capture's gzip members: its response (or revisit) record, its request record when known, its metadata record. */
  bytes: Uint8Array;
  /** Length of the first member: what a CDXJ line points at. */
  recordLength: number;
  /** `sha1:BASE32` of the payload. */
  payloadDigest: string;
}

/** One capture's records, each its own gzip member, as archives write them. */
export function encodeWarcCapture(capture: WarcCaptureInput, gzipLevel: number): EncodedCapture {
  const date = new Date(capture.fetchedAt);
  const head = Buffer.from(`${capture.httpHead}\r\n\r\n`, 'latin1');
  let main: { bytes: Buffer; recordId: string };
  let payloadDigest: string;
  if (capture.kind === 'page') {
    const body = Buffer.from(capture.body.buffer, capture.body.byteOffset, capture.body.byteLength);
    payloadDigest = sha1Digest(body);
    main = serializeWarcRecord({
      type: 'response',
      targetUri: capture.url,
      date,
      contentType: 'application/http; msgtype=response',
      block: Buffer.concat([head, body]),
      headers: {
        'WARC-Payload-Digest': payloadDigest,
        ...(capture.truncated ? { 'WARC-Truncated': capture.truncated } : {}),
      },
    });
  } else {
    payloadDigest = capture.payloadDigest;
    // The block is the HTTP head alone: the payload is the original's.
    main = serializeWarcRecord({
      type: 'revisit',
      targetUri: capture.url,
      date,
      contentType: 'application/http; msgtype=response',
      block: head,
      headers: {
        'WARC-Profile': IDENTICAL_PAYLOAD_PROFILE,
        'WARC-Refers-To-Target-URI': capture.refersToUrl,
        'WARC-Refers-To-Date': new Date(capture.refersToDate).toISOString(),
        'WARC-Payload-Digest': payloadDigest,
      },
    });
  }
  const members = [gzipMember(main.bytes, gzipLevel)];
  if (capture.kind === 'page' && capture.httpRequest !== null) {
    const request = serializeWarcRecord({
      type: 'request',
      targetUri: capture.url,
      date,
      contentType: 'application/http; msgtype=request',
      block: Buffer.from(`${capture.httpRequest}\r\n\r\n`, 'latin1'),
      headers: { 'WARC-Concurrent-To': main.recordId },
    });
    members.push(gzipMember(request.bytes, gzipLevel));
  }
  const metadata = serializeWarcRecord({
    type: 'metadata',
    targetUri: capture.url,
    date,
    contentType: 'application/json',
    block: Buffer.from(capture.metadata),
    headers: { 'WARC-Concurrent-To': main.recordId },
  });
  members.push(gzipMember(metadata.bytes, gzipLevel));
  return { bytes: Buffer.concat(members), recordLength: members[0]!.length, payloadDigest };
}
