import { startNoisyNewsSite, startTestWeb } from '@crawler/testweb';
import { loadArticleCorpus } from '../article-corpus.js';
import { articleVariants } from './article-variants.js';
import type { LabeledWeb } from './near-duplicate-eval.js';
import { mapLimit } from './recrawl-experiment.js';

async function download(urls: string[], charsets: Map<string, string> = new Map()): Promise<LabeledWeb['pages']> {
  const fetched = await mapLimit(urls, 8, async (url) => {
    const response = await fetch(url, { redirect: 'manual' });
    const body = Buffer.from(await response.arrayBuffer());
    return response.status === 200 ? { url, html: body, charset: charsets.get(url) ?? 'utf-8' } : null;
  });
  return fetched.filter((page) => page !== null);
}

/** Every page of the test web's full profile (slow and flaky ones aside), labeled by its truth. */
export async function testWebLabeled(seed = 1): Promise<LabeledWeb> {
  const web = await startTestWeb({ seed });
  try {
    const truth = web.groundTruth();
    const left = new Set([...truth.slow.map((entry) => entry.url), ...truth.flaky.map((entry) => entry.url)]);
    const pages = await download(
      truth.pages.filter((url) => !left.has(url)),
      new Map(truth.charsets.map((entry) => [entry.url, entry.charset])),
    );
    return {
      pages,
      groups: [
        ...truth.exactDuplicates.map((urls) => ({ kind: 'exact copy (same bytes)', urls })),
        ...truth.contentDuplicates.map((urls) => ({ kind: 'same main text, other URL', urls })),
        ...truth.nearDuplicates.map((pair) => ({ kind: pair.kind, urls: [pair.a, pair.b] })),
      ],
      negatives: truth.notNearDuplicates.map((pair) => ({ kind: pair.kind, a: pair.a, b: pair.b })),
      skipped: {},
      exhaustive: false,
    };
  } finally {
    await web.close();
  }
}

/** The noisy news site and its wire (round 0), labeled by its truth. */
export async function noisyNewsLabeled(seed = 1): Promise<LabeledWeb> {
  const site = await startNoisyNewsSite({ seed });
  try {
    const truth = site.truth();
    return {
      pages: await download(truth.pages),
      groups: truth.nearDuplicates.map((pair) => ({ kind: pair.kind, urls: [pair.a, pair.b] })),
      negatives: truth.notNearDuplicates.map((pair) => ({ kind: pair.kind, a: pair.a, b: pair.b })),
      skipped: {},
      exhaustive: false,
    };
  } finally {
    await site.close();
  }
}

/** Variants of the article-extraction benchmark's real pages (see article-variants.ts). */
export function corpusLabeled(): LabeledWeb {
  return articleVariants(loadArticleCorpus());
}
