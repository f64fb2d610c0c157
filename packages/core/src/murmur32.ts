import { fmix32 } from './murmur-finalizer.js';

/**
 * MurmurHash3 (x86, 32-bit) over a string's UTF-16 code units, two units per block. SimHash needs
 * every output bit to be an independent coin per feature; murmur's finalizer gives that, FNV's low
 * bits do not.
 */
export function murmur32(text: string, seed: number): number {
  let h = seed >>> 0;
  const length = text.length;
  let i = 0;
  for (; i + 1 < length; i += 2) {
    let k = (text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16)) >>> 0;
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (i < length) {
    let k = text.charCodeAt(i);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
  }
  h ^= length * 2;
  return fmix32(h);
}
