import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { filterSeenLinks } from './url-seen-filter.js';

const link = (url: string) => ({ url, anchor: null, rel: null, source: 'a', lastmod: null, changefreq: null });

describe('filterSeenLinks', () => {
  it('passes a URL on once, whichever page links it first, and again for a redelivered page', async () => {
    const store = new MemoryFingerprintStore();
    const first = { url: 'http://a.test/1', fetchedAt: 100 };
    const links = [link('http://a.test/x'), link('http://a.test/y')];
    expect(await filterSeenLinks(store, links, first, 60_000)).toEqual({ links, seen: 0 });
    expect(
      await filterSeenLinks(
        store,
        [link('http://a.test/x'), link('http://a.test/z')],
        { url: 'http://a.test/2', fetchedAt: 200 },
        60_000,
      ),
    ).toEqual({ links: [link('http://a.test/z')], seen: 1 });
    expect(await filterSeenLinks(store, links, first, 60_000)).toEqual({ links, seen: 0 });
    expect(await filterSeenLinks(store, links, { ...first, fetchedAt: 300 }, 60_000)).toEqual({ links: [], seen: 2 });
  });

  it('passes on again, when asked, what an earlier fetch of the same page registered, and nothing of other pages', async () => {
    const store = new MemoryFingerprintStore();
    const page = { url: 'http://a.test/1', fetchedAt: 100 };
    await filterSeenLinks(store, [link('http://a.test/x')], page, 60_000);
    await filterSeenLinks(store, [link('http://a.test/y')], { url: 'http://a.test/2', fetchedAt: 150 }, 60_000);
    const again = await filterSeenLinks(
      store,
      [link('http://a.test/x'), link('http://a.test/y')],
      { ...page, fetchedAt: 300 },
      60_000,
      { againFromSource: true },
    );
    expect(again).toEqual({ links: [link('http://a.test/x')], seen: 1 });
  });

  it('always passes on a link with sitemap hints, so a sitemap can tell the scheduler about a URL a page linked first', async () => {
    const store = new MemoryFingerprintStore();
    await filterSeenLinks(
      store,
      [link('http://a.test/x'), link('http://a.test/y')],
      { url: 'http://a.test/', fetchedAt: 100 },
      60_000,
    );
    const hinted = { ...link('http://a.test/x'), lastmod: 1_700_000_000_000, changefreq: 'daily' };
    const onlyFreq = { ...link('http://a.test/y'), changefreq: 'yearly' };
    const sitemap = { url: 'http://a.test/sitemap.xml', fetchedAt: 200 };
    expect(
      await filterSeenLinks(
        store,
        [hinted, onlyFreq, link('http://a.test/x'), link('http://a.test/z')],
        sitemap,
        60_000,
      ),
    ).toEqual({ links: [hinted, onlyFreq, link('http://a.test/z')], seen: 1 });
  });

  it('forgets a URL after the TTL, so the link base is asked again', async () => {
    let clock = 0;
    const store = new MemoryFingerprintStore({ now: () => clock });
    await filterSeenLinks(store, [link('http://a.test/x')], { url: 'http://a.test/1', fetchedAt: 1 }, 1000);
    clock = 2000;
    expect(
      (await filterSeenLinks(store, [link('http://a.test/x')], { url: 'http://a.test/2', fetchedAt: 2 }, 1000)).seen,
    ).toBe(0);
  });
});
