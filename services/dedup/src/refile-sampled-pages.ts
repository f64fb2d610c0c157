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
 * reads per site and template). Each page is remembered with the template version it was filed with:
 * a page filed with the version just learned (a relearning that changed nothing) is skipped, since
 * filing it again would repeat its analysis to the same result (on the real-web bed a third of all
 * page analyses were such repeats).
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
    /** `templateVersion`: the version of the template the page was just filed with. */
    remember(page: ParsedPage, templateVersion: string): Promise<void> {
      return fingerprints.addToSets([
        {
          namespace: REFILE_NAMESPACE,
          key: page.host,
          members: [refileMember(templateVersion, page.url)],
          ttlMs: REFILE_TTL_MS,
        },
      ]);
    },

    /** Files the remembered pages of the site again with `template`; returns how many. */
    async refile(host: string, template: SiteTemplate): Promise<number> {
      const [members = []] = await fingerprints.members(REFILE_NAMESPACE, [host]);
      await fingerprints.delete(REFILE_NAMESPACE, [host]);
      let filed = 0;
      const due = members.map(readRefileMember).filter((member) => member.version !== template.version);
      for (const { url } of due.slice(0, options.maxPages)) {
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

/** A URL never holds a space, so the version goes before the first one. */
function refileMember(templateVersion: string, url: string): string {
  return `${templateVersion} ${url}`;
}

/** A member written before versions were kept is a bare URL: its version is unknown, so it is filed again. */
function readRefileMember(member: string): { version: string | null; url: string } {
  const space = member.indexOf(' ');
  return space < 0 ? { version: null, url: member } : { version: member.slice(0, space), url: member.slice(space + 1) };
}
