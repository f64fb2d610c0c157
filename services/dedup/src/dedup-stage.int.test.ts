import {
  Schemas,
  silentLogger,
  type FingerprintStore,
  type Outlinks,
  type ParsedPage,
  type StageContext,
  type StatusUpdate,
  type StoredPage,
} from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { createRedisFingerprintStore } from '@crawler/redis';
import { deleteKeysWithPrefix, localRedisConfig, openMasters, scanKeys } from '@crawler/redis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDedupConfig } from './config.js';
import { createDedupStage, DIGEST_NAMESPACE } from './dedup-stage.js';
import { jobScopeOf, scopedFingerprints } from './job-fingerprints.js';
import { newsPage, storyText } from './template/test-pages.js';

const settings = loadDedupConfig({ env: {} });
const article = (n: number) => Array.from({ length: 30 }, (_, i) => `${storyText(n * 100 + i)}.`).join(' ');

function html(url: string, body: string, overrides: Partial<ParsedPage> = {}): ParsedPage {
  const buffer = Buffer.from(body);
  return {
    ...sampleMessages[Schemas.ParsedPage],
    url,
    finalUrl: url,
    host: new URL(url).host,
    contentType: 'text/html',
    // As written before ParsedPage v5: dedup reads the blocks from the body.
    pageBlocks: null,
    body: buffer,
    bodyEncoding: 'identity',
    bodyLength: buffer.length,
    ...overrides,
  };
}

describe.each(['standalone', 'cluster'] as const)('dedup stage on Redis %s', (mode) => {
  const config = localRedisConfig(mode);
  let store: FingerprintStore;
  const stored: StoredPage[] = [];
  const pages = {
    put: async (batch: StoredPage[]) => void stored.push(...batch),
    get: async () => [],
    putRevisits: async () => undefined,
    getRevisits: async () => [],
    putRedirects: async () => undefined,
    getRedirects: async () => [],
    flush: async () => undefined,
    close: async () => undefined,
  };
  beforeAll(() => {
    store = createRedisFingerprintStore(config, silentLogger());
  });
  afterAll(async () => {
    await store.close();
    await deleteKeysWithPrefix(config);
  });

  it('learns a template, finds a near duplicate through the band index and reuses a verdict, across stage instances', async () => {
    let judged = 0;
    const judge = { name: 'count', judge: async () => (judged++, { verdict: 'ok', category: null, reasons: [] }) };
    // Two workers sharing one Redis, as two dedup processes would.
    const [one, two] = [
      createDedupStage({ fingerprints: store, pages, settings, judge }),
      createDedupStage({ fingerprints: store, pages, settings, judge }),
    ];
    const run = async (stage: typeof one, page: ParsedPage) =>
      (await stage.handle(page, {} as StageContext)).at(-1)!.value as StatusUpdate;
    for (let n = 1; n <= 10; n++) {
      const page = newsPage(n);
      await run(
        n % 2 ? one : two,
        html(`http://news.test/${n}`, page, {
          title: `Story ${n} | News`,
          text: page
            .replace(/<[^>]+>/g, '\n')
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean)
            .join('\n'),
        }),
      );
    }
    const job = jobScopeOf(sampleMessages[Schemas.ParsedPage].jobId, settings.sharedJobs);
    expect(await scopedFingerprints(store, job).get('template', ['news.test'])).not.toEqual([null]);
    const original = await run(
      one,
      html('http://news.test/story', `<p>${article(1)}</p>`, { title: 'Harbor ferries | News', text: article(1) }),
    );
    const reprint = await run(
      two,
      html('http://wire.test/copy', `<p>${article(1)}</p><p>Reprinted.</p>`, {
        title: 'Harbor ferries | Wire',
        text: `${article(1)}\nReprinted with permission.`,
      }),
    );
    expect(reprint).toMatchObject({ change: 'near_duplicate', duplicateOf: 'http://news.test/story', verdict: 'ok' });
    const copy = await run(
      one,
      html('http://mirror.test/copy', `<p>${article(1)}</p>`, { title: 'Harbor ferries | News', text: article(1) }),
    );
    expect(copy).toMatchObject({ change: 'duplicate', duplicateOf: 'http://news.test/story', verdict: 'ok' });
    expect(judged).toBe(11);
    expect(original.change).toBe('new');
  });

  it('keeps two jobs apart on one Redis: the second job’s byte-identical home page is new and passes on its links', async () => {
    // Two workers, as two dedup processes would be; each job's pages may land on either.
    const [one, two] = [
      createDedupStage({ fingerprints: store, pages, settings }),
      createDedupStage({ fingerprints: store, pages, settings }),
    ];
    const link = (url: string) => ({ url, anchor: null, rel: null, source: 'a', lastmod: null, changefreq: null });
    const body = `<h1>Welcome</h1><p>${article(7)}</p>`;
    const home = (host: string, jobId: string) =>
      html(`http://${host}/`, body, {
        jobId,
        title: 'Welcome',
        text: article(7),
        links: [link(`http://${host}/about`), link('http://elsewhere.test/')],
      });
    const run = async (stage: typeof one, page: ParsedPage) => {
      const emissions = await stage.handle(page, {} as StageContext);
      const links = emissions.filter((emission) => emission.topic.endsWith('crawl.links'));
      return {
        status: emissions.at(-1)!.value as StatusUpdate,
        links: links.flatMap((emission) => (emission.value as Outlinks).links.map((kept) => kept.url)),
      };
    };
    const first = await run(one, home('a.test', `first-${mode}`));
    const second = await run(two, home('b.test', `second-${mode}`));
    expect(first).toMatchObject({
      status: { change: 'new' },
      links: ['http://a.test/about', 'http://elsewhere.test/'],
    });
    expect(second).toMatchObject({
      status: { change: 'new', duplicateOf: null },
      links: ['http://b.test/about', 'http://elsewhere.test/'],
    });
    expect(
      (await run(one, html('http://b.test/copy', body, { jobId: `second-${mode}`, text: article(7) }))).status,
    ).toMatchObject({ change: 'duplicate', duplicateOf: 'http://b.test/' });

    // Each job's digest under its own key: <prefix>digest:<job>/<digest>.
    const { masters, close } = await openMasters(config);
    try {
      const keys = (
        await Promise.all(masters.map((master) => scanKeys(master, `${config.keyPrefix}${DIGEST_NAMESPACE}:`)))
      )
        .flat()
        .filter((key) => key.endsWith(first.status.digest!));
      expect(keys.sort()).toEqual([
        `${config.keyPrefix}${DIGEST_NAMESPACE}:first-${mode}/${first.status.digest}`,
        `${config.keyPrefix}${DIGEST_NAMESPACE}:second-${mode}/${first.status.digest}`,
      ]);
    } finally {
      await close();
    }
  });
});
