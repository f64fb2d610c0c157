import { gzipSync } from 'node:zlib';

/** Deflate never looks further back than the data, and zlib's minimum lookahead must fit too. */
const MIN_LOOKAHEAD = 262;

/**
 * One gzip member of `bytes`, with the smallest window that holds all of them: the output is the
 * same as with the default 32 KiB window, but zlib sets up and frees far less memory per record
 * (a WARC record of a few KiB: about a third less CPU). Synchronous: it runs on the WARC
 * encoder's own thread, never on the event loop.
 */
export function gzipMember(bytes: Buffer, level: number): Buffer {
  const windowBits = Math.max(9, Math.min(15, Math.ceil(Math.log2(bytes.length + MIN_LOOKAHEAD))));
  return gzipSync(bytes, { level, windowBits });
}
