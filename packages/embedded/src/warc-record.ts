import { randomUUID } from 'node:crypto';
import { sha1Digest } from '@crawler/core';

export interface WarcRecordInput {
  type: 'response' | 'request' | 'revisit' | 'metadata' | 'warcinfo' | 'resource';
  targetUri?: string;
  date: Date;
  contentType: string;
  block: Buffer;
  /** Extra WARC headers (e.g. WARC-Concurrent-To, WARC-Payload-Digest). */
  headers?: Record<string, string>;
  recordId?: string;
}

/** Serializes one WARC/1.1 record: version line, named fields, CRLF, block, CRLF CRLF. */
export function serializeWarcRecord(input: WarcRecordInput): { bytes: Buffer; recordId: string } {
  const recordId = input.recordId ?? `<urn:uuid:${randomUUID()}>`;
  const lines = [
    'WARC/1.1',
    `WARC-Type: ${input.type}`,
    `WARC-Record-ID: ${recordId}`,
    `WARC-Date: ${input.date.toISOString()}`,
  ];
  if (input.targetUri) lines.push(`WARC-Target-URI: ${input.targetUri}`);
  for (const [name, value] of Object.entries(input.headers ?? {}))
    lines.push(`${name}: ${value.replace(/[\r\n]+/g, ' ')}`);
  lines.push(
    `WARC-Block-Digest: ${sha1Digest(input.block)}`,
    `Content-Type: ${input.contentType}`,
    `Content-Length: ${input.block.length}`,
  );
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
  return { bytes: Buffer.concat([head, input.block, Buffer.from('\r\n\r\n')]), recordId };
}

export interface ParsedWarcRecord {
  headers: Map<string, string>;
  block: Buffer;
}

/** Parses consecutive WARC records from uncompressed bytes. */
export function parseWarcRecords(bytes: Buffer): ParsedWarcRecord[] {
  const records: ParsedWarcRecord[] = [];
  let position = 0;
  while (position < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', position);
    if (headEnd < 0) break;
    const headers = new Map<string, string>();
    for (const line of bytes.subarray(position, headEnd).toString('utf8').split('\r\n').slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
    }
    const length = Number(headers.get('content-length') ?? 0);
    const blockStart = headEnd + 4;
    records.push({ headers, block: bytes.subarray(blockStart, blockStart + length) });
    position = blockStart + length + 4;
  }
  return records;
}
