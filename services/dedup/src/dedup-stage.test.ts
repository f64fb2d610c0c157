import { Schemas, Topics } from '@crawler/core';
import type { Outlinks, ParsedPage, StageContext, StatusUpdate, StoredPage } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { createDedupStage } from './dedup-stage.js';

function page(url: string, text: string, overrides: Partial<ParsedPage> = {}): ParsedPage {
  const body = Buffer.from(`<p>${text}</p>`);
  return { ...sampleMessages[Schemas.ParsedPage], url, finalUrl: url, text, body, bodyEncoding: 'identity', bodyLength: body.length, ...overrides };
}

function memoryPages() {
  const stored: StoredPage[] = [];
  return { stored, store: { put: async (pages: StoredPage[]) => void stored.push(...pages), get: async () => [], flush: async () => undefined, close: async () => undefined } };
}

const text = 'This article has enough words for a text digest to apply to it.';

describe('dedup stage', () => {
  it('stores a new page, passes its outlinks on and reports the decision', async () => {
    const pages = memoryPages();
    const stage = createDedupStage({ fingerprints: new MemoryFingerprintStore(), pages: pages.store, digestAlgorithm: 'md5', digestTtlMs: 60_000 });
    const emissions = await stage.handle(page('http://a.test/1', text), {} as StageContext);
    expect(emissions.map((emission) => emission.topic)).toEqual([Topics.pages, Topics.links, Topics.status]);
    expect(pages.stored).toHaveLength(1);
    expect((emissions[1]!.value as Outlinks).depth).toBe(sampleMessages[Schemas.ParsedPage].depth + 1);
    expect(emissions[2]!.value as StatusUpdate).toMatchObject({ outcome: 'ok', change: 'new' });
  });

  it('stores nothing and passes no outlinks for a duplicate or an unchanged page', async () => {
    const pages = memoryPages();
    const stage = createDedupStage({ fingerprints: new MemoryFingerprintStore(), pages: pages.store, digestAlgorithm: 'md5', digestTtlMs: 60_000 });
    const first = await stage.handle(page('http://a.test/1', text), {} as StageContext);
    const digest = (first.at(-1)!.value as StatusUpdate).digest;
    const duplicate = await stage.handle(page('http://a.test/copy', text), {} as StageContext);
    const refetched = await stage.handle(page('http://a.test/1', text, { fetchedAt: 1 }), {} as StageContext);
    expect(refetched.map((emission) => emission.topic)).toEqual([Topics.status]);
    expect(duplicate.map((emission) => emission.topic)).toEqual([Topics.status]);
    expect(duplicate[0]!.value as StatusUpdate).toMatchObject({ change: 'duplicate', duplicateOf: 'http://a.test/1' });
    const recrawl = await stage.handle(page('http://a.test/1', text, { previousDigest: digest }), {} as StageContext);
    expect(recrawl.map((emission) => emission.topic)).toEqual([Topics.status]);
    expect(recrawl[0]!.value as StatusUpdate).toMatchObject({ change: 'unchanged' });
    const changed = await stage.handle(page('http://a.test/1', `${text} Updated.`, { previousDigest: digest }), {} as StageContext);
    expect((changed.at(-1)!.value as StatusUpdate).change).toBe('changed');
    expect(pages.stored.map((stored) => stored.change)).toEqual(['new', 'changed']);
    expect(Object.fromEntries(stage.decisions)).toEqual({ new: 1, duplicate: 1, unchanged: 2, changed: 1 });
  });

  it('does not store a noindex page but still follows its links', async () => {
    const pages = memoryPages();
    const stage = createDedupStage({ fingerprints: new MemoryFingerprintStore(), pages: pages.store, digestAlgorithm: 'md5', digestTtlMs: 60_000 });
    const emissions = await stage.handle(page('http://a.test/n', text, { noindex: true }), {} as StageContext);
    expect(emissions.map((emission) => emission.topic)).toEqual([Topics.links, Topics.status]);
    expect((emissions[1]!.value as StatusUpdate).outcome).toBe('noindex');
    expect(pages.stored).toEqual([]);
  });
});
