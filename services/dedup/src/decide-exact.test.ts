import { Schemas } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import type { PageAnalysis } from './analyze-page.js';
import { createExactDecider } from './decide-exact.js';

const page = (url: string) => ({
  ...sampleMessages[Schemas.ParsedPage],
  url,
  host: new URL(url).host,
  previousDigest: null,
});
const analysis = (digest: string, rawDigest: string): PageAnalysis => ({
  media: false,
  rawDigest,
  digest,
  text: 'text',
  blocks: [],
  pageChars: 5_000,
  fingerprint: null,
});

describe('the exact level', () => {
  it('calls the same bytes at another URL a duplicate even when their de-noised texts differ', async () => {
    const decide = createExactDecider({ fingerprints: new MemoryFingerprintStore(), ttlMs: 60_000 });
    const first = await decide(page('http://docs.test/'), analysis('text-before-template', 'bytes'), '', null);
    expect(first.change).toBe('new');
    // The site's template was learned in between: the same bytes give another de-noised text digest.
    const copy = await decide(
      page('http://docs.test/index.html'),
      analysis('text-after-template', 'bytes'),
      't1',
      null,
    );
    expect(copy).toMatchObject({ change: 'duplicate', duplicateOf: 'http://docs.test/' });
  });

  it('keeps other bytes with another text new', async () => {
    const decide = createExactDecider({ fingerprints: new MemoryFingerprintStore(), ttlMs: 60_000 });
    await decide(page('http://docs.test/a'), analysis('text-a', 'bytes-a'), '', null);
    expect((await decide(page('http://docs.test/b'), analysis('text-b', 'bytes-b'), '', null)).change).toBe('new');
  });
});
