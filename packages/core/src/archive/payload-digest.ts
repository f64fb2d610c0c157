import { hash } from 'node:crypto';

/** RFC 4648 base32, as WARC digests conventionally use (sha1:BASE32). */
export function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/**
 * `sha1:BASE32` of some bytes: the form of WARC-Payload-Digest and WARC-Block-Digest that replay
 * tools (pywb, ReplayWeb.page) index and match revisits by. The crawler's own dedup digests are
 * separate and may use any algorithm.
 */
export function sha1Digest(bytes: Uint8Array): string {
  return `sha1:${base32(hash('sha1', bytes, 'buffer'))}`;
}
