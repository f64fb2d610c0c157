import { pickChangeRate, proseContent } from '../model/page-kit.js';
import type { Content } from '../model/web-model.js';
import { createRandom } from '../seeded-random.js';
import { writeSentence, writeTitle } from '../text/prose.js';

// Content that appears on more than one host (reprints, mirrors) lives here, so every copy is
// generated from the same key and changes in the same rounds.

export function newsArticleTitle(seed: number, n: number): string {
  return writeTitle(createRandom(seed, 'news-title', n));
}

export function newsArticleContent(seed: number, n: number): Content {
  const key = `news:article:${n}`;
  return proseContent(seed, key, pickChangeRate(seed, key), 5);
}

/** The same article with a credit line first, as another site reprints it. */
export function reprintContent(seed: number, n: number): Content {
  const original = newsArticleContent(seed, n);
  return {
    ...original,
    paragraphs: (edition) => ['Reprinted with permission from The Daily Ledger.', ...original.paragraphs(edition)],
  };
}

/** The same content with exactly one sentence replaced (a correction notice). */
export function oneSentenceEdited(seed: number, original: Content): Content {
  return {
    ...original,
    paragraphs: (edition) => {
      const paragraphs = original.paragraphs(edition).slice();
      const sentences = (paragraphs[1] ?? '').split(/(?<=\.) /);
      sentences[0] = writeSentence(createRandom(seed, 'correction', original.key, edition));
      paragraphs[1] = sentences.join(' ');
      return paragraphs;
    },
  };
}

export function docsSlug(seed: number, n: number): string {
  return `${writeTitle(createRandom(seed, 'docs-slug', n))
    .toLowerCase()
    .replace(/ /g, '-')}-${n}`;
}

export function docsTitle(seed: number, n: number): string {
  return `Chapter ${n + 1}: ${writeTitle(createRandom(seed, 'docs-title', n))}`;
}

export function docsContent(seed: number, n: number): Content {
  const key = `docs:${n}`;
  return proseContent(seed, key, pickChangeRate(seed, key), 4);
}
