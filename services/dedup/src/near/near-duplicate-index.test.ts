import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { decodeIndexedPage, encodeIndexedPage, NearDuplicateIndex } from './near-duplicate-index.js';
import type { IndexedPage } from './nearest-match.js';

const page: IndexedPage = { body: 0x0123456789abcdefn, pairs: 0xfedcba9876543210n, title: null, urlTag: '0a1b2c3d', digest: 'e4d909c290d0fb1ca068ffaddf22cbd0' };

describe('NearDuplicateIndex', () => {
  it('encodes an entry in 56 characters plus the digest, and reads it back', () => {
    const member = encodeIndexedPage(page);
    expect(member).toHaveLength(56 + page.digest.length);
    expect(decodeIndexedPage(member)).toEqual(page);
    expect(decodeIndexedPage(encodeIndexedPage({ ...page, title: 5n }))).toEqual({ ...page, title: 5n });
    expect(decodeIndexedPage('not an entry')).toBeNull();
  });

  it('finds an indexed page from a hash within k bits, one entry per page however many tables share it', async () => {
    const store = new MemoryFingerprintStore();
    const index = new NearDuplicateIndex(store, { maxDistance: 3, ttlMs: 60_000 });
    await index.add(page);
    await index.add({ ...page, body: ~page.body & 0xffffffffffffffffn, digest: 'other' });
    expect(await index.candidates(page.body ^ 0b10101n)).toEqual([page]);
    expect(await index.candidates(page.body ^ 0xf0f0f0f0f0f0f0f0n)).toEqual([]);
  });
});
