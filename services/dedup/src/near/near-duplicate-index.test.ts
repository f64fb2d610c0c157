import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import {
  decodeIndexedPage,
  encodeIndexedPage,
  HEADLINE_NAMESPACE,
  MAX_PAGES_PER_HEADLINE,
  NearDuplicateIndex,
} from './near-duplicate-index.js';
import type { IndexedPage } from './nearest-match.js';

const page: IndexedPage = {
  body: 0x0123456789abcdefn,
  pairs: 0xfedcba9876543210n,
  title: null,
  urlTag: '0a1b2c3d',
  digest: 'e4d909c290d0fb1ca068ffaddf22cbd0',
};

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

  it('files a page under its headline on request, finds it there whatever its body, and stops filing a headline many texts carry', async () => {
    const store = new MemoryFingerprintStore();
    const index = new NearDuplicateIndex(store, { maxDistance: 3, ttlMs: 60_000 });
    const titled = { ...page, title: 0x77n };
    const farBody = page.body ^ 0xf0f0f0f0f0f0f0f0n;
    await index.add({ ...titled, title: 0x88n, digest: 'not filed' });
    await index.add(titled, true);
    expect(await index.lookup(farBody, 0x77n)).toEqual({ pages: [titled], headlineOpen: true });
    expect(await index.lookup(farBody, 0x88n)).toEqual({ pages: [], headlineOpen: true });
    expect(await index.lookup(farBody, null)).toEqual({ pages: [], headlineOpen: false });
    // Found by its body and by its headline, listed once.
    expect((await index.lookup(page.body, 0x77n)).pages.filter((found) => found.digest === titled.digest)).toHaveLength(
      1,
    );
    for (let i = 1; i < MAX_PAGES_PER_HEADLINE; i++)
      await index.add({ ...titled, body: BigInt(i) << 40n, digest: `other ${i}` }, true);
    expect((await store.members(HEADLINE_NAMESPACE, ['0000000000000077']))[0]).toHaveLength(MAX_PAGES_PER_HEADLINE);
    expect(await index.lookup(farBody, 0x77n)).toEqual({ pages: [], headlineOpen: false });
  });
});
