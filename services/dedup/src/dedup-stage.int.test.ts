import {
  Schemas,
  silentLogger,
  type FingerprintStore,
  type ParsedPage,
  type StageContext,
  type StatusUpdate,
  type StoredPage,
} from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { createRedisFingerprintStore } from '@crawler/redis';
import { deleteKeysWithPrefix, localRedisConfig } from '@crawler/redis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDedupConfig } from './config.js';
import { createDedupStage } from './dedup-stage.js';
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
    expect(await store.get('template', ['news.test'])).not.toEqual([null]);
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
});
