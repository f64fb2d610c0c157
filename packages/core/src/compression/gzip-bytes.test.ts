import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzipBytes, gzipBytes, SYNC_ZLIB_MAX_BYTES } from './gzip-bytes.js';

describe('gzipBytes / gunzipBytes', () => {
  const text = 'the harbor ferry schedule changed today, with new routes and more boats for the island ';
  const sizes = [0, 4096, SYNC_ZLIB_MAX_BYTES, SYNC_ZLIB_MAX_BYTES + 1, 4 * SYNC_ZLIB_MAX_BYTES];

  it('compresses with the options given, in place and on the thread pool alike', async () => {
    for (const size of sizes) {
      const bytes = Buffer.from(text.repeat(Math.ceil(size / text.length) + 1).slice(0, size));
      for (const level of [1, 9])
        expect(
          (await gzipBytes(bytes, { level })).equals(gzipSync(bytes, { level })),
          `${size} bytes, level ${level}`,
        ).toBe(true);
    }
  });

  it('restores the bytes of small and large members, and rejects corrupt ones on both paths', async () => {
    for (const size of sizes) {
      const bytes = randomBytes(size);
      expect((await gunzipBytes(gzipSync(bytes))).equals(bytes), `${size} bytes`).toBe(true);
    }
    const small = gzipSync(Buffer.from(text));
    const large = gzipSync(randomBytes(2 * SYNC_ZLIB_MAX_BYTES));
    for (const member of [small, large])
      await expect(gunzipBytes(member.subarray(0, member.length - 12))).rejects.toThrow();
  });
});
