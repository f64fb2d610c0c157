import { Schemas, urlId } from '@crawler/core';
import type { LinkBase, Outlinks, StageContext, StatusUpdate } from '@crawler/core';
import { makeLinkRecord, sampleMessages } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { testStageOptions } from './testing/stage-options.js';
import {
  createLinksStage,
  createSchedulerCounters,
  createStatusStage,
  type SchedulerStageOptions,
} from './scheduler-stages.js';

/** A link base whose writes take a moment, as a remote one does, so handlers interleave. */
function slowLinkBase() {
  const records = new Map<string, ReturnType<typeof makeLinkRecord>>();
  const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 5));
  const linkbase = {
    insertNew: async (batch) =>
      later(
        batch.filter((record) => !records.has(record.id) && records.set(record.id, record)).map((record) => record.id),
      ),
    getMany: async (ids) => later(new Map(ids.filter((id) => records.has(id)).map((id) => [id, records.get(id)!]))),
    update: async (ids, mutate) => {
      const out = [];
      for (const id of ids) {
        const next = records.has(id) ? mutate(records.get(id)!) : null;
        if (next) out.push(records.set(id, next).get(id)!);
      }
      return later(out);
    },
  } as LinkBase;
  return { linkbase, records };
}

const options = (linkbase: LinkBase, counters = createSchedulerCounters()): SchedulerStageOptions =>
  testStageOptions(linkbase, { counters });

describe('links stage', () => {
  it('counts every discovered URL when many messages are handled at once', async () => {
    const counters = createSchedulerCounters();
    const stage = createLinksStage(options(slowLinkBase().linkbase, counters));
    const message = (n: number): Outlinks => ({
      ...sampleMessages[Schemas.Outlinks],
      links: Array.from({ length: 10 }, (_, i) => ({
        url: `http://a.test/${n * 10 + i}`,
        anchor: null,
        rel: null,
        source: 'a',
        lastmod: null,
        changefreq: null,
      })),
    });
    await Promise.all(Array.from({ length: 30 }, (_, n) => stage.handle(message(n), {} as StageContext)));
    expect(counters.discovered).toBe(300);
    expect(counters.linksReceived).toBe(300);
  });

  it('values new URLs, counts inlinks and anchors of known ones, and credits the source page with its new URLs', async () => {
    const { linkbase, records } = slowLinkBase();
    const source = makeLinkRecord('http://a.test/', { status: 'fetched', fetchCount: 1 });
    const known = makeLinkRecord('http://a.test/known', { anchors: ['Old'] });
    await linkbase.insertNew([source, known]);
    const stage = createLinksStage(options(linkbase));
    const links = [
      { url: 'http://a.test/known', anchor: 'Known page', rel: null, source: 'a', lastmod: null, changefreq: null },
      { url: 'http://a.test/new', anchor: 'New page', rel: null, source: 'a', lastmod: null, changefreq: null },
      { url: 'http://a.test/', anchor: 'Home', rel: null, source: 'a', lastmod: null, changefreq: null },
    ];
    await stage.handle(
      {
        ...sampleMessages[Schemas.Outlinks],
        kind: 'page',
        sourceUrl: source.url,
        sourceUrlId: source.id,
        depth: 1,
        links,
      },
      {} as StageContext,
    );
    expect(records.get(known.id)).toMatchObject({ inlinks: 1, anchors: ['Old', 'Known page'] });
    expect(records.get(source.id)).toMatchObject({ inlinks: 0, linkYield: 0.3 });
    const fresh = [...records.values()].find((record) => record.url === 'http://a.test/new')!;
    expect(fresh).toMatchObject({ depth: 1, rank: 0.25, trafficClass: 'discovery', anchors: ['New page'] });
    expect(fresh.value).toBeGreaterThan(0);
    expect(fresh.priority).toBe(fresh.value);
  });

  it('stores a sitemap’s lastmod and changefreq on insert, and newer ones on rediscovery, with or without inlink counting', async () => {
    const { linkbase, records } = slowLinkBase();
    const stage = createLinksStage({ ...options(linkbase), countInlinks: false });
    const sitemap = (lastmod: number, changefreq: string | null): Outlinks => ({
      ...sampleMessages[Schemas.Outlinks],
      kind: 'page',
      sourceUrl: 'http://a.test/sitemap.xml',
      sourceUrlId: urlId('http://a.test/sitemap.xml'),
      depth: 1,
      links: [{ url: 'http://a.test/p', anchor: null, rel: null, source: 'sitemap', lastmod, changefreq }],
    });
    await stage.handle(sitemap(1_000, 'weekly'), {} as StageContext);
    const id = urlId('http://a.test/p');
    expect(records.get(id)).toMatchObject({
      source: 'sitemap',
      sitemapLastmod: 1_000,
      sitemapChangefreq: 'weekly',
      inlinks: 0,
    });
    await stage.handle(sitemap(2_000, 'daily'), {} as StageContext);
    expect(records.get(id)).toMatchObject({ sitemapLastmod: 2_000, sitemapChangefreq: 'daily', inlinks: 0 });
    await stage.handle(sitemap(1_500, 'yearly'), {} as StageContext);
    expect(records.get(id)).toMatchObject({ sitemapLastmod: 2_000, sitemapChangefreq: 'daily' });
    const counting = createLinksStage(options(linkbase));
    await counting.handle(sitemap(3_000, null), {} as StageContext);
    expect(records.get(id)).toMatchObject({ sitemapLastmod: 3_000, sitemapChangefreq: 'daily', inlinks: 1 });
  });
});

describe('status stage redirects', () => {
  const redirect = (from: string, to: string): StatusUpdate => ({
    ...sampleMessages[Schemas.StatusUpdate],
    url: from,
    urlId: urlId(from),
    host: 'a.test',
    queueKey: 'a.test',
    jobId: 'default',
    outcome: 'redirect',
    httpStatus: 301,
    redirectTo: to,
    change: null,
    digest: null,
  });

  it('adds a redirect target without its fragment, empty or not, and finds a loop through one', async () => {
    const { linkbase, records } = slowLinkBase();
    const [home, old, other] = ['http://a.test/', 'http://a.test/old', 'http://a.test/other'].map((url) =>
      makeLinkRecord(url, { status: 'queued', jobId: 'default' }),
    );
    await linkbase.insertNew([home!, old!, other!]);
    const stage = createStatusStage(options(linkbase));
    await stage.handle(redirect(old!.url, 'http://a.test/new#'), {} as StageContext);
    await stage.handle(redirect(other!.url, 'http://a.test/new#top'), {} as StageContext);
    expect([...records.values()].map((record) => record.url).sort()).toEqual([
      'http://a.test/',
      'http://a.test/new',
      'http://a.test/old',
      'http://a.test/other',
    ]);
    expect(records.get(old!.id)).toMatchObject({ status: 'redirect', redirectTo: 'http://a.test/new' });
    await stage.handle(redirect('http://a.test/new', 'http://a.test/old#'), {} as StageContext);
    expect(records.get(old!.id)).toMatchObject({ status: 'error', lastOutcome: 'redirect_loop' });
    expect(records.get(urlId('http://a.test/new'))).toMatchObject({ status: 'error', lastOutcome: 'redirect_loop' });
  });
});

describe('sitemap hints through links and status', () => {
  const DAY = 86_400_000;
  const now = Date.UTC(2026, 0, 10);
  const policy = { ...options(slowLinkBase().linkbase).policy, minIntervalMs: 3_600_000, maxIntervalMs: 30 * DAY };

  /** Discovers each URL from one sitemap with its hints, then applies a first fetch of each (200, new) at the same time. */
  async function firstVisits(entries: { url: string; lastmod: number | null; changefreq: string | null }[]) {
    const { linkbase, records } = slowLinkBase();
    const stageOptions = { ...options(linkbase), policy, now: () => now };
    await createLinksStage(stageOptions).handle(
      {
        ...sampleMessages[Schemas.Outlinks],
        kind: 'page',
        sourceUrl: 'http://a.test/sitemap.xml',
        sourceUrlId: urlId('http://a.test/sitemap.xml'),
        depth: 1,
        links: entries.map((entry) => ({ ...entry, anchor: null, rel: null, source: 'sitemap' })),
      },
      {} as StageContext,
    );
    const status = createStatusStage(stageOptions);
    for (const entry of entries) {
      const update: StatusUpdate = {
        ...sampleMessages[Schemas.StatusUpdate],
        url: entry.url,
        urlId: urlId(entry.url),
        host: 'a.test',
        queueKey: 'a.test',
        depth: 1,
        outcome: 'ok',
        change: 'new',
        digest: `d-${entry.url}`,
        lastModified: null,
        fetchedAt: now,
      };
      await status.handle(update, {} as StageContext);
    }
    return entries.map((entry) => records.get(urlId(entry.url))!);
  }

  it('visits a URL the sitemap calls hourly again before one it calls yearly, all else equal', async () => {
    const [hourly, yearly, unhinted] = await firstVisits([
      { url: 'http://a.test/hourly', lastmod: null, changefreq: 'hourly' },
      { url: 'http://a.test/yearly', lastmod: null, changefreq: 'yearly' },
      { url: 'http://a.test/plain', lastmod: null, changefreq: null },
    ]);
    expect(hourly!.nextFetchAt).toBeLessThan(unhinted!.nextFetchAt);
    expect(unhinted!.nextFetchAt).toBeLessThan(yearly!.nextFetchAt);
    expect(hourly!.nextFetchAt - now).toBe(policy.minIntervalMs);
    expect(yearly!.nextFetchAt - now).toBe(policy.maxIntervalMs);
    expect(hourly!.changeRate!).toBeGreaterThan(unhinted!.changeRate!);
    expect(unhinted!.changeRate!).toBeGreaterThan(yearly!.changeRate!);
  });

  it('visits a URL whose sitemap lastmod is a year old later than one modified yesterday (the first fetch counts it as unchanged since)', async () => {
    const [old, recent] = await firstVisits([
      { url: 'http://a.test/old', lastmod: now - 365 * DAY, changefreq: null },
      { url: 'http://a.test/recent', lastmod: now - DAY, changefreq: null },
    ]);
    expect(old!.changeHistory).toEqual([{ ms: 365 * DAY, changed: false }]);
    expect(old!.nextFetchAt).toBeGreaterThan(recent!.nextFetchAt);
    expect(old!.changeRate!).toBeLessThan(recent!.changeRate!);
  });

  it('brings a fetched page forward when the sitemap is read again with a lastmod after that fetch', async () => {
    const [page] = await firstVisits([{ url: 'http://a.test/story', lastmod: now - DAY, changefreq: 'monthly' }]);
    expect(page!.nextFetchAt).toBeGreaterThan(now + DAY);
    const { linkbase, records } = slowLinkBase();
    await linkbase.insertNew([page!]);
    const later = now + 3_600_000;
    const reread = (lastmod: number): Outlinks => ({
      ...sampleMessages[Schemas.Outlinks],
      kind: 'page',
      sourceUrl: 'http://a.test/sitemap.xml',
      sourceUrlId: urlId('http://a.test/sitemap.xml'),
      depth: 1,
      links: [{ url: page!.url, anchor: null, rel: null, source: 'sitemap', lastmod, changefreq: 'monthly' }],
    });
    const links = createLinksStage({ ...options(linkbase), policy, now: () => later });
    await links.handle(reread(now - DAY), {} as StageContext);
    expect(records.get(page!.id)!.nextFetchAt).toBe(page!.nextFetchAt);
    await links.handle(reread(now + 60_000), {} as StageContext);
    expect(records.get(page!.id)).toMatchObject({ sitemapLastmod: now + 60_000, nextFetchAt: later });
  });
});
