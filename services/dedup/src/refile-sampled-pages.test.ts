import { Schemas, type PageStore, type ParsedPage, type StoredPage } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { NearDuplicateIndex } from './near/near-duplicate-index.js';
import { createSampledPageRefiler, REFILE_NAMESPACE } from './refile-sampled-pages.js';
import { learnTemplate, sampleOf } from './template/learn-template.js';
import { blocksOf, newsPage } from './template/test-pages.js';

const TTL_MS = 3600_000;

/** A page store that holds nothing and says which URLs were read from it. */
function readLog(): PageStore & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    put: async () => undefined,
    get: async (url: string): Promise<StoredPage[]> => {
      reads.push(url);
      return [];
    },
    putRevisits: async () => undefined,
    getRevisits: async () => [],
    putRedirects: async () => undefined,
    getRedirects: async () => [],
    flush: async () => undefined,
    close: async () => undefined,
  };
}

const pageAt = (url: string): ParsedPage => ({ ...sampleMessages[Schemas.ParsedPage], url, host: new URL(url).host });

describe('filing sampled pages again once their template is learned', () => {
  it('reads only the pages filed with another template version, or with none recorded', async () => {
    const fingerprints = new MemoryFingerprintStore();
    const pages = readLog();
    const refiler = createSampledPageRefiler({
      fingerprints,
      pages,
      index: new NearDuplicateIndex(fingerprints, { maxDistance: 3, ttlMs: TTL_MS }),
      algorithm: 'sha1',
      minTokens: 10,
      byHeadline: false,
      ttlMs: TTL_MS,
      maxPages: 10,
    });
    const template = learnTemplate(
      [1, 2, 3, 4].map((n) => sampleOf(blocksOf(newsPage(n)))),
      0,
    );
    const host = 'news.example';
    // Filed with the template just learned: filing it again would give what it already gave.
    await refiler.remember(pageAt(`http://${host}/same`), template.version);
    await refiler.remember(pageAt(`http://${host}/older`), '0123abcd');
    // Remembered before versions were kept: a bare URL.
    await fingerprints.addToSets([
      { namespace: REFILE_NAMESPACE, key: host, members: [`http://${host}/bare`], ttlMs: TTL_MS },
    ]);

    await refiler.refile(host, template);

    expect(pages.reads.sort()).toEqual([`http://${host}/bare`, `http://${host}/older`]);
    expect(await fingerprints.members(REFILE_NAMESPACE, [host])).toEqual([[]]);
  });
});
