import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import {
  ANCHOR_NAMESPACE,
  ANCHORS_PER_PAGE,
  decodeIndexedPage,
  encodeIndexedPage,
  HEADLINE_NAMESPACE,
  MAX_PAGES_PER_ANCHOR,
  MAX_PAGES_PER_HEADLINE,
  NearDuplicateIndex,
  type IndexedPage,
} from './near-duplicate-index.js';

const page: IndexedPage = {
  body: 0x0123456789abcdefn,
  pairs: 0xfedcba9876543210n,
  title: null,
  specific: false,
  titleKey: null,
  tokens: 812,
  site: 0x9e3779b9,
  anchors: [7, 0x8000_0000],
  urlTag: '0a1b2c3d',
  digest: 'e4d909c290d0fb1ca068ffaddf22cbd0',
};
const digest = (n: number) => n.toString(16).padStart(32, '0');
const nowhere = { headline: null, anchors: [] };

describe('NearDuplicateIndex', () => {
  it('encodes an entry with what the rule screens by, and reads it back', () => {
    const member = encodeIndexedPage(page);
    expect(member).toHaveLength(1 + 48 + 8 + 8 + 8 + 6 + 1 + 8 * ANCHORS_PER_PAGE + page.digest.length);
    expect(decodeIndexedPage(member)).toEqual(page);
    const titled = {
      ...page,
      title: 5n,
      specific: true,
      titleKey: 0xffffffff,
      anchors: [1, 2, 3].slice(0, ANCHORS_PER_PAGE),
    };
    expect(decodeIndexedPage(encodeIndexedPage(titled))).toEqual(titled);
    expect(decodeIndexedPage('not an entry')).toBeNull();
    // The older form, without the fields a match is verified with, is skipped.
    expect(decodeIndexedPage(`${'0'.repeat(48)}0a1b2c3d${page.digest}`)).toBeNull();
  });

  it('finds an indexed page from a hash within k bits, one entry per page however many tables share it', async () => {
    const store = new MemoryFingerprintStore();
    const index = new NearDuplicateIndex(store, { maxDistance: 3, ttlMs: 60_000 });
    await index.add(page, nowhere);
    await index.add({ ...page, body: ~page.body & 0xffffffffffffffffn, digest: digest(1) }, nowhere);
    expect(await index.candidates(page.body ^ 0b10101n)).toEqual([page]);
    expect(await index.candidates(page.body ^ 0xf0f0f0f0f0f0f0f0n)).toEqual([]);
  });

  it('files a page under its headline on request, finds it there whatever its body, and stops filing a headline many texts carry', async () => {
    const store = new MemoryFingerprintStore();
    const index = new NearDuplicateIndex(store, { maxDistance: 3, ttlMs: 60_000 });
    const titled = { ...page, title: 0x77n };
    const farBody = page.body ^ 0xf0f0f0f0f0f0f0f0n;
    await index.add({ ...titled, title: 0x88n, digest: digest(2) }, nowhere);
    await index.add(titled, { headline: 0x77n, anchors: [] });
    const lookup = (headline: bigint | null) => index.lookup({ body: farBody, headline, anchors: [] });
    expect(await lookup(0x77n)).toEqual({ pages: [titled], headlineOpen: true, openAnchors: [] });
    expect(await lookup(0x88n)).toEqual({ pages: [], headlineOpen: true, openAnchors: [] });
    expect(await lookup(null)).toEqual({ pages: [], headlineOpen: false, openAnchors: [] });
    // Found by its body and by its headline, listed once.
    expect(
      (await index.lookup({ body: page.body, headline: 0x77n, anchors: [] })).pages.filter(
        (found) => found.digest === titled.digest,
      ),
    ).toHaveLength(1);
    for (let i = 1; i < MAX_PAGES_PER_HEADLINE; i++)
      await index.add({ ...titled, body: BigInt(i) << 40n, digest: digest(10 + i) }, { headline: 0x77n, anchors: [] });
    expect((await store.members(HEADLINE_NAMESPACE, ['0000000000000077']))[0]).toHaveLength(MAX_PAGES_PER_HEADLINE);
    expect(await lookup(0x77n)).toEqual({ pages: [], headlineOpen: false, openAnchors: [] });
  });

  it('files a page under its anchors, finds it by any of them, and leaves an anchor many texts share alone', async () => {
    const store = new MemoryFingerprintStore();
    const index = new NearDuplicateIndex(store, { maxDistance: 3, ttlMs: 60_000 });
    const farBody = page.body ^ 0xf0f0f0f0f0f0f0f0n;
    await index.add(page, { headline: null, anchors: page.anchors });
    expect(await index.lookup({ body: farBody, headline: null, anchors: [99, page.anchors[1]!] })).toEqual({
      pages: [page],
      headlineOpen: false,
      openAnchors: [99, page.anchors[1]!],
    });
    for (let i = 1; i < MAX_PAGES_PER_ANCHOR; i++)
      await index.add({ ...page, body: BigInt(i) << 40n, digest: digest(20 + i) }, { headline: null, anchors: [7] });
    expect((await store.members(ANCHOR_NAMESPACE, ['00000007']))[0]).toHaveLength(MAX_PAGES_PER_ANCHOR);
    const full = await index.lookup({ body: farBody, headline: null, anchors: [7] });
    expect(full).toEqual({ pages: [], headlineOpen: false, openAnchors: [] });
    // A page already in a full set may file itself there again (an unchanged page renewing its entry).
    expect(await index.openSets(page, { body: page.body, headline: null, anchors: [7, 42] })).toEqual({
      headlineOpen: false,
      openAnchors: [7, 42],
    });
    expect(
      await index.openSets({ ...page, digest: digest(99) }, { body: page.body, headline: null, anchors: [7, 42] }),
    ).toEqual({ headlineOpen: false, openAnchors: [42] });
  });
});
