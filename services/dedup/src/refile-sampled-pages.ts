import type { FingerprintStore, PageStore, ParsedPage } from '@crawler/core';
import { analyzePage } from './analyze-page.js';
import type { DigestAlgorithm } from './content-digest.js';
import { DIGEST_NAMESPACE } from './decide-exact.js';
import type { NearDuplicateIndex } from './near/near-duplicate-index.js';
import { indexedPageOf, indexKeysOf, subjectOf } from './near/near-subject.js';
import { decodeRegistration, encodeRegistration } from './registration.js';
import type { SiteTemplate } from './template/site-template.js';

/** URLs of a site's pages filed while its template was being learned. */
export const REFILE_NAMESPACE = 'trefile';
/** As long as template samples wait: a site that slow is sampled again. */
const REFILE_TTL_MS = 24 * 3600_000;

/**
 * The pages a site's template is learned from were fingerprinted without it (or with the template it
 * replaces): their text still holds what the template strips. Their copies met later are de-noised,
 * and would not find them: a short item in a heavy template is mostly template until it is stripped,
 * and on a documentation site the template may strip most of a long page. So each page filed while
 * learning is due is remembered, and once the template is learned the worker that learned it reads
 * their stored versions and files them again, de-noised, beside their first entries (a few page-store
 * reads per site and template).
 */
export function createSampledPageRefiler(options: {
  fingerprints: FingerprintStore;
  pages: PageStore;
  index: NearDuplicateIndex;
  algorithm: DigestAlgorithm;
  minTokens: number;
  byHeadline: boolean;
  ttlMs: number;
  /** Most pages filed again per learned template. */
  maxPages: number;
}) {
  const { fingerprints, pages, index, ttlMs } = options;
  return {
    remember(page: ParsedPage): Promise<void> {
      return fingerprints.addToSets([
        { namespace: REFILE_NAMESPACE, key: page.host, members: [page.url], ttlMs: REFILE_TTL_MS },
      ]);
    },

    /** Files the remembered pages of the site again with `template`; returns how many. */
    async refile(host: string, template: SiteTemplate): Promise<number> {
      const [urls = []] = await fingerprints.members(REFILE_NAMESPACE, [host]);
      await fingerprints.delete(REFILE_NAMESPACE, [host]);
      let filed = 0;
      for (const url of urls.slice(0, options.maxPages)) {
        const [stored] = await pages.get(url);
        if (!stored) continue;
        const analysis = analyzePage(stored, template, options.algorithm);
        const subject = subjectOf(host, analysis);
        if (!subject || subject.tokens < options.minTokens) continue;
        const [registered] = await fingerprints.putIfAbsent([
          {
            namespace: DIGEST_NAMESPACE,
            key: analysis.digest,
            value: encodeRegistration({
              url,
              fetchedAt: stored.fetchedAt,
              template: template.version,
              verdict: stored.verdict,
              nearOf: null,
              distance: null,
              pageChars: analysis.pageChars,
              sketch: subject.sketch,
            }),
            ttlMs,
          },
        ]);
        // Its de-noised text is another page's: that page stands for it in the index.
        if (!registered!.created && decodeRegistration(registered!.existing ?? '').url !== url) continue;
        const entry = indexedPageOf(url, analysis.digest, subject);
        const keys = indexKeysOf(subject, options.byHeadline);
        const open = await index.openSets(entry, keys);
        await index.add(entry, { headline: open.headlineOpen ? keys.headline : null, anchors: open.openAnchors });
        filed++;
      }
      return filed;
    },
  };
}
