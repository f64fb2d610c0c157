import type { ParsedPage } from '@crawler/core';
import type { Decided } from './decide-exact.js';
import type { Lookup, NearDuplicateIndex } from './near/near-duplicate-index.js';
import type { NearSubject } from './near/near-duplicate-rule.js';
import { indexedPageOf, indexKeysOf } from './near/near-subject.js';

/**
 * Whether and how the page is filed in the near-duplicate index. A stored page is. An unchanged
 * page re-files itself when its entry may be getting old (bucket TTLs are not refreshed by lookups)
 * or is new (its digest was registered just now). Only a page that found room in its headline's set
 * (or is in it already) is filed under it, so the set stays bounded; an unchanged page made no
 * lookup, and asks the set, or its headline entry would expire before its band entries.
 */
export function createIndexFiler(options: {
  index: NearDuplicateIndex;
  byHeadline: boolean;
  ttlMs: number;
  now: () => number;
}) {
  const { index, byHeadline, ttlMs, now } = options;
  return {
    /** Known before any fingerprint is computed: most unchanged pages are not due. */
    due(page: ParsedPage, decided: Decided): boolean {
      if (decided.change === 'new' || decided.change === 'changed') return true;
      return (
        decided.change === 'unchanged' &&
        (decided.owner.fetchedAt === page.fetchedAt || now() - decided.owner.fetchedAt > ttlMs / 2)
      );
    },

    async file(page: ParsedPage, subject: NearSubject, digest: string, lookup: Lookup | null): Promise<void> {
      const entry = indexedPageOf(page.url, digest, subject);
      const keys = indexKeysOf(subject, byHeadline);
      const open = lookup ?? (await index.openSets(entry, keys));
      await index.add(entry, { headline: open.headlineOpen ? keys.headline : null, anchors: open.openAnchors });
    },
  };
}
