import { urlId, type FingerprintStore, type ParsedPage } from '@crawler/core';
import type { PageAnalysis } from './analyze-page.js';
import { decideChange, type ChangeVerdict } from './decide-change.js';
import type { ShingleSketch } from './fingerprint/shingle-sketch.js';
import { sizesAllowCopy } from './near/near-duplicate-rule.js';
import { siteTag } from './near/near-subject.js';
import { decodeRegistration, encodeRegistration, type Registration } from './registration.js';

export const DIGEST_NAMESPACE = 'digest';
export const RAW_NAMESPACE = 'raw';
export const MEDIA_NAMESPACE = 'media';
/** The first fetch of each URL (its fetch time): a fetch repeated before the link base knew of the first one is recognised. */
export const FETCH_NAMESPACE = 'fetch';

/** What a page's content is, so far: the decision, and the registration it is decided with. */
export interface Decided extends ChangeVerdict {
  /** The registration whose verdict applies and is updated (this page's, or the first copy's). */
  owner: Registration;
  /** The owner's digest: where a fresh verdict is written. */
  ownerDigest: string;
  /**
   * False when another page of the site registered this text first but cannot be its copy by size
   * (`sizesAllowCopy`): the page is decided by its own history, and the registration stays theirs.
   */
  ownsRegistration: boolean;
}

export interface ExactDecision extends Decided {
  /** These bytes were registered by an earlier fetch of this URL. */
  rawSeenBefore: boolean;
  /** This URL was fetched before, though the link base has no digest for it. */
  fetchedBefore: boolean;
  /** The earlier fetch (of any URL) that first had these very bytes: what a revisit refers to. */
  sameBytesAs: { url: string; fetchedAt: number } | null;
}

/**
 * The exact level: registers the page's digests (media: the raw one, in its own namespace), with
 * what verifies a later match against it (its size, and the sketch of a text that may be looked
 * up), and decides what the digest alone allows (decide-change.ts). A digest registered first by
 * another page of the site whose visible text is more than three times larger or smaller is not a
 * copy: an extractor that kept one table of a 1.7 MB index gave it the text of that table's page.
 * Bytes another URL registered first are its copy, whatever the text digest.
 */
export function createExactDecider(options: { fingerprints: FingerprintStore; ttlMs: number }) {
  const { fingerprints, ttlMs } = options;
  return async function decideExact(
    page: ParsedPage,
    analysis: PageAnalysis,
    template: string,
    sketch: ShingleSketch | null,
  ): Promise<ExactDecision> {
    const own: Registration = {
      url: page.url,
      fetchedAt: page.fetchedAt,
      template,
      verdict: null,
      nearOf: null,
      distance: null,
      pageChars: analysis.media ? null : analysis.pageChars,
      sketch,
    };
    const value = encodeRegistration(own);
    const namespace = analysis.media ? MEDIA_NAMESPACE : DIGEST_NAMESPACE;
    const entries = [{ namespace, key: analysis.digest, value, ttlMs }];
    const withRaw = !analysis.media && analysis.rawDigest !== analysis.digest;
    // The raw digest only tells a refetch of the same bytes: no size or sketch to keep there.
    if (withRaw)
      entries.push({
        namespace: RAW_NAMESPACE,
        key: analysis.rawDigest,
        value: encodeRegistration({ ...own, pageChars: null, sketch: null }),
        ttlMs,
      });
    // Only a fetch the link base knows nothing of can be a repeat of one it has not recorded yet.
    if (page.previousDigest === null)
      entries.push({ namespace: FETCH_NAMESPACE, key: urlId(page.url), value: String(page.fetchedAt), ttlMs });
    const [digestResult, ...rest] = await fingerprints.putIfAbsent(entries);
    const rawResult = withRaw ? rest.shift() : undefined;
    const fetchResult = rest.shift();
    const registeredBy =
      digestResult!.created || digestResult!.existing === null ? null : decodeRegistration(digestResult!.existing);
    const foreign =
      registeredBy !== null &&
      registeredBy.url !== page.url &&
      !sizesAllowCopy(
        { site: siteTag(page.host), pageChars: own.pageChars },
        { site: siteTag(new URL(registeredBy.url).host), pageChars: registeredBy.pageChars },
      );
    const decided = decideChange({
      url: page.url,
      fetchedAt: page.fetchedAt,
      digest: analysis.digest,
      previousDigest: page.previousDigest,
      registeredBy: foreign ? null : registeredBy,
    });
    const rawFirst =
      rawResult && !rawResult.created && rawResult.existing !== null ? decodeRegistration(rawResult.existing) : null;
    // The same bytes as another URL's are a copy whatever the text digests say: a template learned
    // between the two fetches gives byte-identical pages different de-noised texts (Git's git.html and /).
    const byteCopy =
      rawFirst !== null && rawFirst.url !== page.url && (decided.change === 'new' || decided.change === 'changed');
    // Without a raw registration of its own (media), the digest's registration is the bytes'.
    const bytesFirst = withRaw ? rawFirst : analysis.rawDigest === analysis.digest ? registeredBy : null;
    const sameBytesAs =
      bytesFirst !== null && !(bytesFirst.url === page.url && bytesFirst.fetchedAt === page.fetchedAt)
        ? { url: bytesFirst.url, fetchedAt: bytesFirst.fetchedAt }
        : null;
    const fetchedBefore =
      fetchResult !== undefined &&
      !fetchResult.created &&
      fetchResult.existing !== null &&
      Number(fetchResult.existing) !== page.fetchedAt;
    return {
      ...(byteCopy ? { change: 'duplicate' as const, duplicateOf: rawFirst.url, distance: null } : decided),
      owner: registeredBy ?? own,
      ownerDigest: analysis.digest,
      ownsRegistration: !foreign,
      rawSeenBefore: rawFirst !== null && rawFirst.url === page.url && rawFirst.fetchedAt !== page.fetchedAt,
      fetchedBefore,
      sameBytesAs,
    };
  };
}
