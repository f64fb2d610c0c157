import { Schemas, sha1Digest, Topics } from '@crawler/core';
import type {
  Emission,
  Outlinks,
  ParsedPage,
  RedirectCapture,
  ReviewRecord,
  Revisit,
  StageContext,
  StatusUpdate,
  StoredPage,
} from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { extractHtml, extractLimitsOf, loadLinkextractConfig } from '@crawler/linkextract';
import { describe, expect, it } from 'vitest';
import { loadDedupConfig } from './config.js';
import { createDedupStage, MEDIA_NAMESPACE } from './dedup-stage.js';
import { simhashHex } from './fingerprint/simhash.js';
import { jobScopeOf, scopedFingerprints } from './job-fingerprints.js';
import { fingerprintText } from './fingerprint/text-fingerprint.js';
import type { Judge } from './judge/judge.js';
import { HEADLINE_NAMESPACE, MAX_PAGES_PER_HEADLINE } from './near/near-duplicate-index.js';
import { newsPage, storyText, vocabularyText } from './template/test-pages.js';

const settings = loadDedupConfig({ env: {} });
const limits = extractLimitsOf(loadLinkextractConfig({ env: {} }));
const context = {} as StageContext;
const text = 'This article has enough words for a text digest to apply to it.';

function page(url: string, body: string, overrides: Partial<ParsedPage> = {}): ParsedPage {
  const buffer = Buffer.from(body);
  return {
    ...sampleMessages[Schemas.ParsedPage],
    url,
    finalUrl: url,
    host: new URL(url).host,
    text: body,
    contentType: 'text/plain',
    pageBlocks: null,
    body: buffer,
    bodyEncoding: 'identity',
    bodyLength: buffer.length,
    ...overrides,
  };
}

/** A page as link extraction hands it on: title and main text from the real extractor. */
function htmlPage(url: string, html: string, overrides: Partial<ParsedPage> = {}): ParsedPage {
  const extracted = extractHtml(html, limits);
  return page(url, html, {
    contentType: 'text/html',
    title: extracted.title,
    text: extracted.text,
    pageBlocks: extracted.pageBlocks,
    ...overrides,
  });
}

function memoryPages() {
  const stored: StoredPage[] = [];
  const revisits: Revisit[] = [];
  const redirects: RedirectCapture[] = [];
  const store = {
    put: async (pages: StoredPage[]) => void stored.push(...pages),
    putRevisits: async (entries: Revisit[]) => void revisits.push(...entries),
    getRevisits: async (url: string) => revisits.filter((revisit) => revisit.url === url),
    putRedirects: async (entries: RedirectCapture[]) => void redirects.push(...entries),
    getRedirects: async (url: string) => redirects.filter((redirect) => redirect.url === url),
    get: async (url: string, options: { versions?: number } = {}) =>
      stored
        .filter((version) => version.url === url)
        .sort((a, b) => b.fetchedAt - a.fetchedAt)
        .slice(0, options.versions ?? 1),
    flush: async () => undefined,
    close: async () => undefined,
  };
  return { stored, revisits, redirects, store };
}

function setup(
  options: { judge?: Judge; fingerprints?: MemoryFingerprintStore; settings?: Partial<typeof settings> } = {},
) {
  const pages = memoryPages();
  const fingerprints = options.fingerprints ?? new MemoryFingerprintStore();
  const stage = createDedupStage({
    fingerprints,
    pages: pages.store,
    settings: { ...settings, ...options.settings },
    judge: options.judge,
  });
  const run = async (parsed: ParsedPage) => {
    const emissions = await stage.handle(parsed, context);
    return {
      emissions,
      topics: emissions.map((emission) => emission.topic),
      status: emissions.at(-1)!.value as StatusUpdate,
    };
  };
  return { stage, pages, fingerprints, jobFingerprints: sampleJobFingerprints(fingerprints), run };
}

/** The fingerprints of the sample pages' job, as the stage keys them (job-fingerprints.ts). */
const sampleJobFingerprints = (store: MemoryFingerprintStore) =>
  scopedFingerprints(store, jobScopeOf(sampleMessages[Schemas.ParsedPage].jobId, settings.sharedJobs));

const article = (n: number, sentences = 30) =>
  Array.from({ length: sentences }, (_, i) => `${storyText(n * 100 + i)}.`).join(' ');
const of = (emissions: Emission[], topic: string) =>
  emissions.filter((emission) => emission.topic === topic).map((emission) => emission.value);

describe('dedup stage', () => {
  it('stores a new page, passes its outlinks on and reports the decision', async () => {
    const { pages, run } = setup();
    const { emissions, topics, status } = await run(page('http://a.test/1', text));
    expect(topics).toEqual([Topics.pages, Topics.links, Topics.status]);
    expect(pages.stored).toHaveLength(1);
    expect(pages.stored[0]).toMatchObject({ change: 'new', simhash: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect((emissions[1]!.value as Outlinks).depth).toBe(sampleMessages[Schemas.ParsedPage].depth + 1);
    expect(status).toMatchObject({ outcome: 'ok', change: 'new', distance: null, verdict: null });
  });

  it('archives a redirect as it was served and nothing more: no page, no fingerprint, no emission', async () => {
    const { pages, run, stage } = setup();
    const note = '<html><body>Moved to /new</body></html>';
    const redirect = page('http://a.test/old', note, {
      httpStatus: 301,
      contentType: 'text/html',
      headers: { location: '/new', 'content-type': 'text/html' },
      requestHeaders: { 'user-agent': 'test' },
      text: '',
      links: [],
    });
    expect(await stage.handle(redirect, context)).toEqual([]);
    expect(pages.stored).toEqual([]);
    expect(pages.redirects).toEqual([
      {
        url: 'http://a.test/old',
        surt: 'test,a)/old',
        jobId: redirect.jobId,
        fetchedAt: redirect.fetchedAt,
        httpStatus: 301,
        headers: { location: '/new', 'content-type': 'text/html' },
        requestHeaders: { 'user-agent': 'test' },
        location: 'http://a.test/new',
        body: Buffer.from(note),
        truncated: false,
      },
    ]);
    expect(Object.fromEntries(stage.decisions)).toEqual({});
    // Its bytes registered nothing: the same bytes as a page are new content.
    expect((await run(page('http://a.test/page', note))).status.change).toBe('new');
  });

  it('stores a page whose earlier fetch registered its digests but died before storing it (a crash)', async () => {
    const fingerprints = new MemoryFingerprintStore();
    const dying = createDedupStage({
      fingerprints,
      pages: { ...memoryPages().store, put: async () => Promise.reject(new Error('killed')) },
      settings,
    });
    await expect(dying.handle(page('http://a.test/1', text, { fetchedAt: 1 }), context)).rejects.toThrow('killed');
    const { pages, run } = setup({ fingerprints });
    const again = await run(page('http://a.test/1', text, { fetchedAt: 2 }));
    expect(again.status.change).toBe('new');
    expect(again.topics).toEqual([Topics.pages, Topics.links, Topics.status]);
    expect(pages.stored.map((stored) => stored.fetchedAt)).toEqual([2]);
  });

  it('fails the message, not the process, when a fingerprint write fails while the page is being stored', async () => {
    // A Redis outage mid-message: the writes begun before the page store's put fail during it.
    class FailingWrites extends MemoryFingerprintStore {
      override set = async () => Promise.reject(new Error('redis set failed'));
      override addToSets = async () => Promise.reject(new Error('redis addToSets failed'));
    }
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const slowPut = memoryPages().store;
      const stage = createDedupStage({
        fingerprints: new FailingWrites(),
        pages: {
          ...slowPut,
          put: (pages) => new Promise((resolve) => setTimeout(() => resolve(slowPut.put(pages)), 20)),
        },
        settings,
      });
      await expect(stage.handle(page('http://a.test/1', article(1)), context)).rejects.toThrow(/redis/);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('passes sitemap hints on to crawl.links and crawl.pages as link extraction gave them', async () => {
    const { pages, run } = setup();
    const links = [
      {
        url: 'http://a.test/h',
        anchor: null,
        rel: null,
        source: 'sitemap',
        lastmod: Date.UTC(2026, 0, 1),
        changefreq: 'hourly',
      },
      { url: 'http://a.test/y', anchor: null, rel: null, source: 'sitemap', lastmod: null, changefreq: 'yearly' },
    ];
    const { emissions } = await run(page('http://a.test/sitemap.xml', text, { links }));
    expect((of(emissions, Topics.links)[0] as Outlinks).links).toEqual(links);
    expect(pages.stored[0]!.links).toEqual(links);
  });

  it('stores nothing and passes no outlinks for a duplicate or an unchanged page', async () => {
    const { stage, pages, run } = setup();
    const first = await run(page('http://a.test/1', text));
    const duplicate = await run(page('http://a.test/copy', text));
    // Fetched again before the link base recorded the first fetch (a crash in between): not stored
    // again, but its outlinks pass again, as the first fetch's may never have reached the scheduler.
    const refetched = await run(page('http://a.test/1', text, { fetchedAt: 1 }));
    expect(refetched.topics).toEqual([Topics.links, Topics.status]);
    expect(refetched.status.change).toBe('unchanged');
    expect((of(refetched.emissions, Topics.links)[0] as Outlinks).links).toEqual(
      (of(first.emissions, Topics.links)[0] as Outlinks).links,
    );
    expect(duplicate.topics).toEqual([Topics.status]);
    expect(duplicate.status).toMatchObject({ change: 'duplicate', duplicateOf: 'http://a.test/1' });
    const recrawl = await run(page('http://a.test/1', text, { previousDigest: first.status.digest }));
    expect(recrawl.topics).toEqual([Topics.status]);
    expect(recrawl.status).toMatchObject({ change: 'unchanged' });
    const copyRecrawl = await run(
      page('http://a.test/copy', text, { previousDigest: first.status.digest, fetchedAt: 5 }),
    );
    expect(copyRecrawl.status).toMatchObject({ change: 'duplicate', duplicateOf: 'http://a.test/1' });
    const changed = await run(page('http://a.test/1', `${text} Updated.`, { previousDigest: first.status.digest }));
    expect(changed.status.change).toBe('changed');
    expect(pages.stored.map((stored) => stored.change)).toEqual(['new', 'changed']);
    expect(Object.fromEntries(stage.decisions)).toEqual({ new: 1, duplicate: 2, unchanged: 2, changed: 1 });
    // Each capture of the first fetch's bytes is a revisit of it; the recrawl at the first fetch's own time is that fetch again.
    const firstFetch = pages.stored[0]!.fetchedAt;
    expect(
      pages.revisits.map(({ url, fetchedAt, refersToUrl, refersToDate }) => [
        url,
        fetchedAt,
        refersToUrl,
        refersToDate,
      ]),
    ).toEqual([
      ['http://a.test/copy', firstFetch, 'http://a.test/1', firstFetch],
      ['http://a.test/1', 1, 'http://a.test/1', firstFetch],
      ['http://a.test/copy', 5, 'http://a.test/1', firstFetch],
    ]);
    expect(pages.revisits[0]).toMatchObject({
      httpStatus: 200,
      headers: sampleMessages[Schemas.ParsedPage].headers,
      payloadDigest: sha1Digest(Buffer.from(text)),
      jobId: sampleMessages[Schemas.ParsedPage].jobId,
    });
  });

  it('does not store a noindex page but still follows its links', async () => {
    const { pages, run } = setup();
    const { topics, status } = await run(page('http://a.test/n', text, { noindex: true }));
    expect(topics).toEqual([Topics.links, Topics.status]);
    expect(status.outcome).toBe('noindex');
    expect(pages.stored).toEqual([]);
  });

  it('finds a near duplicate on another site, with its distance, and keeps deciding so on re-crawls', async () => {
    const { pages, run } = setup();
    const original = article(1);
    await run(page('http://news.test/story', original, { title: 'Ferries every twenty minutes | News' }));
    const reprint = await run(
      page('http://wire.test/copy', `Reprinted with permission.\n${original}`, {
        title: 'Ferries every twenty minutes - Wire',
      }),
    );
    expect(reprint.status).toMatchObject({
      change: 'near_duplicate',
      duplicateOf: 'http://news.test/story',
      distance: expect.any(Number),
    });
    expect(reprint.status.distance).toBeLessThanOrEqual(3);
    expect(reprint.topics).toEqual([Topics.status]);
    const again = await run(
      page('http://wire.test/copy', `Reprinted with permission.\n${original}`, {
        title: 'Ferries every twenty minutes - Wire',
        previousDigest: reprint.status.digest,
        fetchedAt: 9,
      }),
    );
    expect(again.status).toMatchObject({
      change: 'near_duplicate',
      duplicateOf: 'http://news.test/story',
      distance: reprint.status.distance,
    });
    const other = await run(
      page('http://wire.test/other', article(2), { title: 'Ferries every twenty minutes - Wire' }),
    );
    expect(other.status.change).toBe('new');
    expect(pages.stored.map((stored) => stored.url)).toEqual(['http://news.test/story', 'http://wire.test/other']);
  });

  it('finds a reprint under its own headline, its text drifted past k bits, by a run of words it shares; not another text under one headline', async () => {
    const { run } = setup();
    const words = vocabularyText(1, 300);
    const drifted = [...words.slice(0, 270), ...vocabularyText(2, 30)].join(' ');
    await run(page('http://news.test/story', words.join(' '), { title: 'Harbor ferries every twenty minutes | News' }));
    const reprint = await run(page('http://wire.test/copy', drifted, { title: 'What commuters need to know - Wire' }));
    expect(reprint.status).toMatchObject({ change: 'near_duplicate', duplicateOf: 'http://news.test/story' });
    expect(reprint.status.distance).toBeGreaterThan(settings.nearSameHeadlineDistance);
    const other = await run(
      page('http://wire.test/other', vocabularyText(3, 300).join(' '), {
        title: 'Harbor ferries every twenty minutes - Wire',
      }),
    );
    expect(other.status.change).toBe('new');
  });

  it('stores both of two pages of one site with one title and main text but not one size, and keeps deciding so', async () => {
    const { pages, run } = setup();
    // An index of every letter whose extraction kept one letter's table: its main text is that letter's page's.
    const index = (url: string, letters: number, overrides: Partial<ParsedPage> = {}) =>
      page(
        url,
        `<html><body><div class="body">${Array.from({ length: letters * 20 }, (_, i) => `<p>${storyText(i)}</p>`).join('')}</div></body></html>`,
        { contentType: 'text/html', title: 'Index', text: article(1), ...overrides },
      );
    const letter = await run(index('http://docs.test/genindex-P.html', 1));
    const all = await run(index('http://docs.test/genindex-all.html', 26));
    expect(all.status).toMatchObject({ change: 'new', digest: letter.status.digest, duplicateOf: null });
    const again = await run(
      index('http://docs.test/genindex-all.html', 26, { previousDigest: all.status.digest, fetchedAt: 9 }),
    );
    expect(again.status.change).toBe('unchanged');
    // A page of that size with the same text is still a copy.
    expect((await run(index('http://docs.test/genindex-P.html?print', 1))).status).toMatchObject({
      change: 'duplicate',
      duplicateOf: 'http://docs.test/genindex-P.html',
    });
    expect(pages.stored.map((stored) => stored.url)).toEqual([
      'http://docs.test/genindex-P.html',
      'http://docs.test/genindex-all.html',
    ]);
  });

  it('lets a near duplicate pass on the links its original does not have, not those at the same place below it', async () => {
    const { run } = setup({ settings: { urlSeenTtlMs: 0 } });
    const link = (url: string) => ({ url, anchor: null, rel: null, source: 'a', lastmod: null, changefreq: null });
    await run(
      page('http://docs.test/a/index.html', article(1), {
        links: [link('http://docs.test/a/x.html'), link('http://docs.test/a/sub/'), link('http://docs.test/about')],
      }),
    );
    const copy = await run(
      page('http://docs.test/a/sub/index.html', `${article(1)} Last updated today.`, {
        links: [
          link('http://docs.test/about'),
          link('http://docs.test/a/sub/x.html'),
          link('http://docs.test/a/sub/sub/'),
          link('http://docs.test/a/only-here.html'),
        ],
      }),
    );
    expect(copy.status.change).toBe('near_duplicate');
    expect(copy.topics).toEqual([Topics.links, Topics.status]);
    expect((of(copy.emissions, Topics.links)[0] as Outlinks).links.map((passed) => passed.url)).toEqual([
      'http://docs.test/a/only-here.html',
    ]);
  });

  it('files the pages a template was learned from again, de-noised, so a copy met later finds them', async () => {
    const { run } = setup();
    // Words without digits: template learning masks digits, and would find every item alike.
    const words = (seed: number, count: number) =>
      vocabularyText(seed, count).map((word) => word.replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]!));
    const item = (n: number) => words(100 + n, 30).join(' ');
    const about = Array.from({ length: 6 }, (_, i) => `<p>${words(7 + i, 40).join(' ')}.</p>`).join('');
    const brief = (n: number) =>
      `<html><head><title>Brief ${n} | Harbor Briefs</title></head><body><article><p>${item(n)}</p><div class="about">${about}</div></article></body></html>`;
    const first = await run(htmlPage('http://briefs.test/1', brief(1)));
    expect(first.status.change).toBe('new');
    for (let n = 2; n <= settings.templatePages + 2; n++) await run(htmlPage(`http://briefs.test/${n}`, brief(n)));
    const copy = await run(page('http://wire.test/brief', item(1), { title: 'Harbor news in brief - Wire' }));
    expect(copy.status).toMatchObject({ change: 'near_duplicate', duplicateOf: 'http://briefs.test/1' });
  });

  it(`files at most ${MAX_PAGES_PER_HEADLINE} different texts under one headline`, async () => {
    const { jobFingerprints, run } = setup();
    const title = 'Letters from our readers this week | News';
    for (let n = 1; n <= MAX_PAGES_PER_HEADLINE + 3; n++)
      expect(
        (await run(page(`http://news.test/letters/${n}`, vocabularyText(10 + n, 300).join(' '), { title }))).status
          .change,
      ).toBe('new');
    const [filed] = await jobFingerprints.members(HEADLINE_NAMESPACE, [
      simhashHex(fingerprintText(title, '', 'en').title!),
    ]);
    expect(filed).toHaveLength(MAX_PAGES_PER_HEADLINE);
  });

  it('keeps an unchanged page filed under its headline when it re-indexes itself, so the entry does not expire', async () => {
    let now = 1_000;
    const ttlMs = 10_000;
    const fingerprints = new MemoryFingerprintStore({ now: () => now });
    const pages = memoryPages();
    const stage = createDedupStage({
      fingerprints,
      pages: pages.store,
      settings: { ...settings, digestTtlMs: ttlMs },
      now: () => now,
    });
    const title = 'Harbor ferries every twenty minutes | News';
    const story = page('http://news.test/story', vocabularyText(3, 300).join(' '), { title, fetchedAt: now });
    const first = (await stage.handle(story, context)).at(-1)!.value as StatusUpdate;
    const headlineKey = simhashHex(fingerprintText(title, '', 'en').title!);
    const filed = async () =>
      (await sampleJobFingerprints(fingerprints).members(HEADLINE_NAMESPACE, [headlineKey]))[0]!.length;
    expect(await filed()).toBe(1);
    now += ttlMs * 0.6;
    const again = (await stage.handle({ ...story, previousDigest: first.digest, fetchedAt: now }, context)).at(-1)!
      .value as StatusUpdate;
    expect(again.change).toBe('unchanged');
    now += ttlMs * 0.7;
    expect(await filed()).toBe(1);
  });

  it('calls a changed page changed, not a near duplicate of its own earlier version', async () => {
    const { run } = setup();
    const first = await run(page('http://news.test/story', article(1)));
    const edited = await run(
      page('http://news.test/story', article(1).replace('.', '. A correction.'), {
        previousDigest: first.status.digest,
        fetchedAt: 2,
      }),
    );
    expect(edited.status.change).toBe('changed');
  });

  it('does not take two short items in one template for near duplicates', async () => {
    const { run } = setup();
    await run(page('http://news.test/brief/1', storyText(1), { title: 'Brief | News' }));
    expect((await run(page('http://news.test/brief/2', storyText(2), { title: 'Brief | News' }))).status.change).toBe(
      'new',
    );
  });

  it('learns the site template, so a re-crawl whose only differences are template noise is unchanged', async () => {
    const { jobFingerprints, pages, run } = setup();
    const digests = new Map<string, string>();
    for (let n = 1; n <= 12; n++)
      digests.set(`http://news.test/${n}`, (await run(htmlPage(`http://news.test/${n}`, newsPage(n)))).status.digest!);
    expect(await jobFingerprints.get('template', ['news.test'])).not.toEqual([null]);
    // The first pages were digested before the template existed: their re-crawl rechecks the stored version.
    const later = sampleMessages[Schemas.ParsedPage].fetchedAt + 60_000;
    const noisy = (n: number) => newsPage(n).replace(/Updated 10:\d+ · \d+ reads/, 'Updated 23:59 · 99999 reads');
    for (let n = 1; n <= 12; n++) {
      const url = `http://news.test/${n}`;
      const recrawl = await run(htmlPage(url, noisy(n), { previousDigest: digests.get(url)!, fetchedAt: later + n }));
      expect(recrawl.status.change, url).toBe('unchanged');
    }
    // Unchanged in text, not in bytes: no capture had these bytes, so there is no original to revisit.
    expect(pages.revisits).toEqual([]);
    const edited = newsPage(3).replace(storyText(3), `${storyText(3)} and one more clause`);
    expect(
      (
        await run(
          htmlPage('http://news.test/3', edited, {
            previousDigest: digests.get('http://news.test/3')!,
            fetchedAt: later + 100,
          }),
        )
      ).status.change,
    ).toBe('changed');
  });

  it('stores a URL fetched twice before the link base knew of the first fetch once, even when the template was learned in between, and records the digest of the version stored', async () => {
    const { pages, run } = setup();
    for (let n = 1; n <= 12; n++) await run(htmlPage(`http://news.test/${n}`, newsPage(n)));
    // Redelivered after a crash: fetched again, no previous digest, only the per-request noise differs.
    const later = sampleMessages[Schemas.ParsedPage].fetchedAt + 60_000;
    const noisy = newsPage(1).replace(/Updated 10:\d+ · \d+ reads/, 'Updated 23:59 · 99999 reads');
    expect((await run(htmlPage('http://news.test/1', noisy, { fetchedAt: later }))).status.change).toBe('unchanged');
    const edited = newsPage(2).replace(storyText(2), `${storyText(2)} and one more clause`);
    const repeat = await run(htmlPage('http://news.test/2', edited, { fetchedAt: later }));
    expect(repeat.status.change).toBe('unchanged');
    // Seconds apart, an edit cannot be told from noise a template keeps: the link base records what is stored.
    expect(repeat.status.digest).toBe(pages.stored.find((stored) => stored.url === 'http://news.test/2')!.digest);
    expect(pages.stored.filter((stored) => stored.url === 'http://news.test/1')).toHaveLength(1);
    expect(pages.stored.filter((stored) => stored.url === 'http://news.test/2')).toHaveLength(1);
  });

  it('stores a URL fetched twice before the link base knew of the first fetch once while its site has no template yet', async () => {
    const { pages, run } = setup();
    expect((await run(htmlPage('http://news.test/1', newsPage(1)))).status.change).toBe('new');
    // A lease lost in an outage: fetched again seconds later, only the per-request noise differs,
    // and nothing learned yet tells that noise from an edit.
    const later = sampleMessages[Schemas.ParsedPage].fetchedAt + 1_000;
    const noisy = newsPage(1).replace(/Updated 10:\d+ · \d+ reads/, 'Updated 23:59 · 99999 reads');
    expect((await run(htmlPage('http://news.test/1', noisy, { fetchedAt: later }))).status.change).toBe('unchanged');
    expect(pages.stored.filter((stored) => stored.url === 'http://news.test/1')).toHaveLength(1);
  });

  it('judges new content once, reuses the verdict for copies and re-crawls, and sends harmful pages to review', async () => {
    let calls = 0;
    const judge: Judge = {
      name: 'test',
      judge: async (input) => (
        calls++,
        input.text.includes('detonator')
          ? { verdict: 'harmful', category: 'weapons', reasons: ['detonator'] }
          : { verdict: 'ok', category: null, reasons: [] }
      ),
    };
    const { pages, run } = setup({ judge });
    const harmful = `${text} It explains the detonator.`;
    const first = await run(page('http://a.test/1', harmful));
    expect(first.status.verdict).toBe('harmful:weapons');
    expect(of(first.emissions, Topics.review)).toEqual([
      expect.objectContaining({
        url: 'http://a.test/1',
        verdict: 'harmful',
        category: 'weapons',
        reasons: ['detonator'],
        judge: 'test',
        digest: first.status.digest,
      }),
    ]);
    expect(pages.stored[0]!.verdict).toBe('harmful:weapons');
    const copy = await run(page('http://b.test/copy', harmful));
    expect(copy.status).toMatchObject({ change: 'duplicate', verdict: 'harmful:weapons' });
    expect(of(copy.emissions, Topics.review)).toEqual([
      expect.objectContaining({
        url: 'http://b.test/copy',
        judge: 'cache',
        reasons: ['same content as http://a.test/1'],
      }),
    ]);
    const recrawl = await run(page('http://a.test/1', harmful, { previousDigest: first.status.digest, fetchedAt: 7 }));
    expect(recrawl.status).toMatchObject({ change: 'unchanged', verdict: 'harmful:weapons' });
    expect(of(recrawl.emissions, Topics.review)).toEqual([]);
    expect((await run(page('http://a.test/2', `${text} Nothing else.`))).status.verdict).toBe('ok');
    expect(calls).toBe(2);
  });

  it('compares media by their bytes alone, in their own namespace', async () => {
    const { jobFingerprints, pages, run } = setup();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const image = (url: string) =>
      page(url, '', { contentType: 'image/png', body: png, bodyLength: png.length, text: '' });
    const first = await run(image('http://a.test/logo.png'));
    expect(first.status).toMatchObject({ change: 'new', digest: first.status.rawDigest });
    expect(await jobFingerprints.get(MEDIA_NAMESPACE, [first.status.digest!])).not.toEqual([null]);
    expect(pages.stored[0]!.simhash).toBeNull();
    expect((await run(image('http://b.test/same.png'))).status).toMatchObject({
      change: 'duplicate',
      duplicateOf: 'http://a.test/logo.png',
    });
  });

  it('passes on only outlinks no page passed on before', async () => {
    const { run } = setup();
    const link = (url: string) => ({ url, anchor: null, rel: null, source: 'a', lastmod: null, changefreq: null });
    const first = await run(
      page('http://a.test/1', text, { links: [link('http://a.test/x'), link('http://a.test/y')] }),
    );
    expect((of(first.emissions, Topics.links)[0] as Outlinks).links).toHaveLength(2);
    const second = await run(
      page('http://a.test/2', `${text} Another page.`, { links: [link('http://a.test/y'), link('http://a.test/z')] }),
    );
    expect((of(second.emissions, Topics.links)[0] as Outlinks).links.map((kept) => kept.url)).toEqual([
      'http://a.test/z',
    ]);
    const third = await run(page('http://a.test/3', `${text} A third page.`, { links: [link('http://a.test/x')] }));
    expect(third.topics).toEqual([Topics.pages, Topics.status]);
    expect(of(third.emissions, Topics.review) as ReviewRecord[]).toEqual([]);
  });

  describe('per job', () => {
    const link = (url: string) => ({ url, anchor: null, rel: null, source: 'a', lastmod: null, changefreq: null });
    /** A job's home page, byte for byte the same on every host, linking its own pages and one page elsewhere. */
    const home = (host: string, jobId: string) =>
      page(`http://${host}/`, text, { jobId, links: [link(`http://${host}/about`), link('http://elsewhere.test/')] });
    const linksOf = (emissions: Emission[]) =>
      (of(emissions, Topics.links) as Outlinks[]).flatMap((outlinks) => outlinks.links.map((kept) => kept.url));

    it('keeps each job to its own fingerprints: a second job’s byte-identical page is new and passes on its links', async () => {
      const { pages, run } = setup();
      const first = await run(home('a.test', 'job-a'));
      const second = await run(home('b.test', 'job-b'));
      expect(first.status.change).toBe('new');
      expect(second.status).toMatchObject({ change: 'new', duplicateOf: null });
      expect(second.topics).toEqual([Topics.pages, Topics.links, Topics.status]);
      expect(linksOf(second.emissions)).toEqual(['http://b.test/about', 'http://elsewhere.test/']);
      expect(pages.stored.map((stored) => [stored.url, stored.jobId])).toEqual([
        ['http://a.test/', 'job-a'],
        ['http://b.test/', 'job-b'],
      ]);
      // Within a job a copy is still a copy.
      const copy = await run(page('http://b.test/copy', text, { jobId: 'job-b' }));
      expect(copy.status).toMatchObject({ change: 'duplicate', duplicateOf: 'http://b.test/' });
    });

    it('compares the jobs that share (DEDUP_SHARED_JOBS, "*" for all) with one another, and no other', async () => {
      const { run } = setup({ settings: { sharedJobs: ['job-a', 'job-c'] } });
      await run(home('a.test', 'job-a'));
      const shared = await run(home('c.test', 'job-c'));
      expect(shared.status).toMatchObject({ change: 'duplicate', duplicateOf: 'http://a.test/' });
      expect(shared.topics).toEqual([Topics.status]);
      expect((await run(home('b.test', 'job-b'))).status.change).toBe('new');

      const all = setup({ settings: { sharedJobs: ['*'] } });
      await all.run(home('a.test', 'job-a'));
      expect((await all.run(home('b.test', 'job-b'))).status).toMatchObject({
        change: 'duplicate',
        duplicateOf: 'http://a.test/',
      });
    });
  });
});
