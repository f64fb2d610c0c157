import { errorCode, errorMessage, Schemas, surtKey, Topics } from '@crawler/core';
import type { ChangeDecision, Emission, FingerprintStore, Outlinks, PageStore, ParsedPage, Stage, StatusUpdate, StoredPage } from '@crawler/core';
import { gunzipSync } from 'node:zlib';
import { contentDigest, hexDigest, type DigestAlgorithm } from './content-digest.js';
import { decideChange, decodeRegistration, encodeRegistration } from './decide-change.js';

export interface DedupStageOptions {
  fingerprints: FingerprintStore;
  pages: PageStore;
  digestAlgorithm: DigestAlgorithm;
  digestTtlMs: number;
}

export const DIGEST_NAMESPACE = 'digest';

/**
 * crawl.parsed -> page store + crawl.pages, crawl.links and crawl.status. Only new and changed
 * pages are stored and pass their outlinks on; an unchanged page or a duplicate contributes only
 * its status (Heritrix's ChangeEvaluator idea). Every decision is a field of the status.
 */
export function createDedupStage(options: DedupStageOptions): Stage<ParsedPage> & { decisions: Map<string, number> } {
  const decisions = new Map<string, number>();
  const count = (decision: string) => decisions.set(decision, (decisions.get(decision) ?? 0) + 1);

  return {
    name: 'dedup',
    input: { topic: Topics.parsed, schema: Schemas.ParsedPage },
    outputs: [Topics.status, Topics.links, Topics.pages],
    decisions,

    async handle(page) {
      const raw = page.bodyEncoding === 'gzip' ? gunzipSync(page.body) : page.body;
      const rawDigest = hexDigest(options.digestAlgorithm, raw);
      const digest = contentDigest(options.digestAlgorithm, page.title, page.text, raw);
      const value = encodeRegistration({ url: page.url, fetchedAt: page.fetchedAt });
      const [registration] = await options.fingerprints.putIfAbsent([{ namespace: DIGEST_NAMESPACE, key: digest, value, ttlMs: options.digestTtlMs }]);
      const registeredBy = registration!.created || registration!.existing === null ? null : decodeRegistration(registration!.existing);
      const verdict = decideChange({ url: page.url, fetchedAt: page.fetchedAt, digest, previousDigest: page.previousDigest, registeredBy });
      const stores = verdict.change === 'new' || verdict.change === 'changed';
      count(page.noindex && stores ? 'noindex' : verdict.change);

      const emissions: Emission[] = [];
      if (stores && !page.noindex) {
        const stored = toStoredPage(page, digest, rawDigest, verdict.change);
        await options.pages.put([stored]);
        emissions.push({ topic: Topics.pages, schema: Schemas.StoredPage, key: page.host, value: stored });
      }
      if (stores && page.links.length > 0) {
        const outlinks: Outlinks = { kind: 'page', sourceUrl: page.url, sourceUrlId: page.urlId, jobId: page.jobId, traceId: page.traceId, depth: page.depth + 1, discoveredAt: page.fetchedAt, links: page.links };
        emissions.push({ topic: Topics.links, schema: Schemas.Outlinks, key: page.host, value: outlinks });
      }
      emissions.push(status(page, { outcome: page.noindex ? 'noindex' : 'ok', change: verdict.change, duplicateOf: verdict.duplicateOf, digest, rawDigest }));
      return emissions;
    },

    onGiveUp(page, error) {
      count('failed');
      return [status(page, { outcome: 'processing_failed', change: null, duplicateOf: null, digest: null, rawDigest: null, errorCode: errorCode(error), errorMessage: errorMessage(error).slice(0, 500) })];
    },
  };
}

function toStoredPage(page: ParsedPage, digest: string, rawDigest: string, change: ChangeDecision): StoredPage {
  return {
    url: page.url,
    urlId: page.urlId,
    surt: surtKey(page.url),
    host: page.host,
    jobId: page.jobId,
    traceId: page.traceId,
    depth: page.depth,
    finalUrl: page.finalUrl,
    httpStatus: page.httpStatus,
    contentType: page.contentType,
    charset: page.charset,
    charsetSource: page.charsetSource,
    headers: page.headers,
    fetchedAt: page.fetchedAt,
    durationMs: page.durationMs,
    etag: page.etag,
    lastModified: page.lastModified,
    body: page.body,
    bodyEncoding: page.bodyEncoding,
    bodyLength: page.bodyLength,
    truncated: page.truncated,
    canonicalUrl: page.canonicalUrl,
    title: page.title,
    description: page.description,
    lang: page.lang,
    publishedAt: page.publishedAt,
    text: page.text,
    links: page.links,
    fields: page.fields,
    digest,
    rawDigest,
    simhash: null,
    change,
    verdict: null,
  };
}

function status(page: ParsedPage, fields: Pick<StatusUpdate, 'outcome' | 'change' | 'duplicateOf' | 'digest' | 'rawDigest'> & Partial<StatusUpdate>): Emission {
  const value: StatusUpdate = {
    url: page.url,
    urlId: page.urlId,
    host: page.host,
    queueKey: page.queueKey,
    depth: page.depth,
    jobId: page.jobId,
    traceId: page.traceId,
    httpStatus: page.httpStatus,
    fetchedAt: page.fetchedAt,
    attempt: 0,
    redirectTo: null,
    distance: null,
    etag: page.etag,
    lastModified: page.lastModified,
    retryAfterMs: null,
    errorCode: null,
    errorMessage: null,
    retriable: false,
    verdict: null,
    meta: page.meta,
    ...fields,
  };
  return { topic: Topics.status, schema: Schemas.StatusUpdate, key: page.queueKey, value };
}
