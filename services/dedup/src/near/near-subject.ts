import { murmur32, urlId } from '@crawler/core';
import type { PageAnalysis } from '../analyze-page.js';
import type { Registration } from '../registration.js';
import { anchorsOf, type IndexedPage, type IndexKeys } from './near-duplicate-index.js';
import type { NearSubject } from './near-duplicate-rule.js';

/** Headlines of fewer content words are rubrics ("Weather", "Letters") or a site's name, not one story's. */
export const MIN_HEADLINE_WORDS = 3;

/** A 32-bit tag of the host: the index keeps it so a match on one site can be screened without a read. */
export function siteTag(host: string): number {
  return murmur32(host.toLowerCase(), 0);
}

/** What the rule compares of an analyzed page (not media); null for media. */
export function subjectOf(host: string, analysis: PageAnalysis): NearSubject | null {
  const fingerprint = analysis.fingerprint;
  if (!fingerprint) return null;
  return {
    body: fingerprint.body,
    pairs: fingerprint.pairs,
    title: fingerprint.title,
    specific: fingerprint.title !== null && fingerprint.headlineWords >= MIN_HEADLINE_WORDS,
    titleKey: fingerprint.titleKey,
    tokens: fingerprint.tokens,
    site: siteTag(host),
    anchors: anchorsOf(fingerprint.sketch),
    pageChars: analysis.pageChars,
    sketch: fingerprint.sketch,
  };
}

/** The page's entry in the near-duplicate index. */
export function indexedPageOf(url: string, digest: string, subject: NearSubject): IndexedPage {
  const { body, pairs, title, specific, titleKey, tokens, site, anchors } = subject;
  return { body, pairs, title, specific, titleKey, tokens, site, anchors, urlTag: urlId(url).slice(0, 8), digest };
}

/** An indexed page as the rule sees it: from its entry, with size and sketch once its registration is read. */
export function indexedSubject(entry: IndexedPage, registration: Registration | null = null): NearSubject {
  return { ...entry, pageChars: registration?.pageChars ?? null, sketch: registration?.sketch ?? null };
}

/** Where the page is looked up and filed; its headline only when specific and the headline lookup is on. */
export function indexKeysOf(subject: NearSubject, byHeadline: boolean): IndexKeys {
  return {
    body: subject.body,
    headline: byHeadline && subject.specific ? subject.title : null,
    anchors: subject.anchors,
  };
}
