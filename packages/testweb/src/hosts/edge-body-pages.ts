import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { addResource } from '../model/page-kit.js';
import type { HostModel, RawAnswer } from '../model/web-model.js';
import { fixed, htmlAnswer, lazy } from './edge-answers.js';

/** Decoded size of /gzip-bomb: 50 MiB of "a" that travels as about 50 KiB. */
export const GZIP_BOMB_BYTES = 50 * 1024 * 1024;
/** Size of /big and /big.pdf: over any sensible body cap. */
export const BIG_BODY_BYTES = 3 * 1024 * 1024;

const COMPRESSED_TEXT = 'This page travelled compressed.';
const compressedHtml = () => htmlAnswer('Compressed', COMPRESSED_TEXT).body!;

/** GZIP_BOMB_BYTES of "a", gzip-encoded, served as HTML. */
export function gzipBombAnswer(): RawAnswer {
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' },
    body: gzipSync(Buffer.alloc(GZIP_BOMB_BYTES, 0x61), { level: 9 }),
  };
}

/**
 * `bytes` as a valid Zstandard frame (RFC 8878) of stored, uncompressed blocks: any zstd decoder
 * reads it, and it needs no zstd encoder, which Node 20 lacks.
 */
export function zstdRawFrame(bytes: Buffer): Buffer {
  const header = Buffer.alloc(9);
  header.writeUInt32LE(0xfd2fb528, 0); // magic number
  header[4] = 0xa0; // Frame_Header_Descriptor: 4-byte content size, single segment, no checksum
  header.writeUInt32LE(bytes.length, 5);
  const blocks: Buffer[] = [header];
  const maxBlock = 128 * 1024;
  for (let offset = 0; offset < bytes.length || offset === 0; offset += maxBlock) {
    const block = bytes.subarray(offset, offset + maxBlock);
    const last = offset + maxBlock >= bytes.length ? 1 : 0;
    const blockHeader = Buffer.alloc(3);
    blockHeader.writeUIntLE((block.length << 3) | last, 0, 3); // Block_Type 0: raw
    blocks.push(blockHeader, block);
  }
  return Buffer.concat(blocks);
}

/** Bodies that test decoding and size limits: every Content-Encoding, a bomb, oversized bodies, types that lie. */
export function addEdgeBodyPages(host: HostModel): void {
  const html = (encoding: string, encode: (bytes: Buffer) => Buffer) =>
    lazy(() => ({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': encoding },
      body: encode(compressedHtml()),
    }));
  addResource(
    host,
    '/encoding/gzip',
    html('gzip', (bytes) => gzipSync(bytes)),
  );
  addResource(
    host,
    '/encoding/deflate',
    html('deflate', (bytes) => deflateSync(bytes)),
  );
  // Some servers send raw DEFLATE (no zlib header) as "deflate"; browsers accept it.
  addResource(
    host,
    '/encoding/deflate-raw',
    html('deflate', (bytes) => deflateRawSync(bytes)),
  );
  addResource(
    host,
    '/encoding/br',
    html('br', (bytes) => brotliCompressSync(bytes)),
  );
  addResource(
    host,
    '/encoding/gzip-br',
    html('gzip, br', (bytes) => brotliCompressSync(gzipSync(bytes))),
  );
  // zstd, which the crawler does not ask for (Node 20's zlib cannot decode it): a server may send it anyway.
  addResource(host, '/encoding/zstd', html('zstd', zstdRawFrame));
  addResource(host, '/gzip-bomb', lazy(gzipBombAnswer));

  addResource(
    host,
    '/big',
    lazy(() => ({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: Buffer.from(`<!DOCTYPE html><title>Big</title><p>${'x'.repeat(BIG_BODY_BYTES)}</p>`),
    })),
  );
  addResource(
    host,
    '/big.pdf',
    lazy(() => ({
      status: 200,
      headers: { 'content-type': 'application/pdf' },
      body: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(BIG_BODY_BYTES, 0x20)]),
    })),
  );
  addResource(
    host,
    '/small.pdf',
    fixed({ status: 200, headers: { 'content-type': 'application/pdf' }, body: Buffer.from('%PDF-1.4\n%%EOF\n') }),
  );
  addResource(
    host,
    '/feed.xml',
    fixed({
      status: 200,
      headers: { 'content-type': 'application/rss+xml' },
      body: Buffer.from('<?xml version="1.0"?><rss version="2.0"><channel><title>Edge</title></channel></rss>\n'),
    }),
  );

  // Content-Type headers that lie, and one that is missing.
  addResource(
    host,
    '/lies/pdf-as-html',
    fixed({ status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from('%PDF-1.4\n%%EOF\n') }),
  );
  addResource(
    host,
    '/lies/png-as-html',
    fixed({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
    }),
  );
  addResource(
    host,
    '/lies/html-as-octet-stream',
    fixed({
      ...htmlAnswer('Octets', 'HTML served as application/octet-stream.'),
      headers: { 'content-type': 'application/octet-stream' },
    }),
  );
  addResource(
    host,
    '/lies/no-type',
    fixed({ status: 200, body: htmlAnswer('Untyped', 'HTML served without a Content-Type.').body! }),
  );
}

export { COMPRESSED_TEXT };
