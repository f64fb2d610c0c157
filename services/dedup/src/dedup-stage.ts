import { errorCode, errorMessage, isRedirectCapture, Schemas, Topics } from '@crawler/core';
import type { Emission, FingerprintStore, Logger, PageStore, ParsedPage, Stage } from '@crawler/core';
import { analyzePage } from './analyze-page.js';
import type { DedupConfig } from './config.js';
import { createExactDecider, DIGEST_NAMESPACE } from './decide-exact.js';
import { decideVerdict, reviewOf } from './decide-verdict.js';
import { createDedupMetrics, type DedupMetrics } from './dedup-metrics.js';
import {
  outlinksEmission,
  reviewEmission,
  pageStatusEmission,
  storedPageEmission,
  toStoredPage,
} from './dedup-emissions.js';
import { createIndexFiler } from './file-in-index.js';
import { asNearDuplicate, createNearDuplicateFinder } from './find-near-duplicate.js';
import { simhashHex } from './fingerprint/simhash.js';
import type { Judge } from './judge/judge.js';
import { isMarkup } from './content-kind.js';
import { VerdictCache } from './judge/verdict-cache.js';
import { NearDuplicateIndex } from './near/near-duplicate-index.js';
import type { NearLimits, NearSubject } from './near/near-duplicate-rule.js';
import { indexKeysOf, subjectOf } from './near/near-subject.js';
import { jobScopeOf, scopedFingerprints } from './job-fingerprints.js';
import { passOutlinks } from './pass-outlinks.js';
import { createStoredVersionRecheck, unrecordedFetch } from './recheck-stored-version.js';
import { redirectCaptureOf } from './record-redirect.js';
import { revisitOf } from './record-revisit.js';
import { createSampledPageRefiler } from './refile-sampled-pages.js';
import { decodeRegistration } from './registration.js';
import { NO_TEMPLATE } from './template/site-template.js';
import { SiteTemplates } from './template/site-templates.js';
import { registrationUpdate } from './update-registration.js';

export { DIGEST_NAMESPACE, FETCH_NAMESPACE, MEDIA_NAMESPACE, RAW_NAMESPACE } from './decide-exact.js';

/** Word-pair SimHash agreement a near duplicate needs besides the body's k bits (see text-fingerprint.ts). */
export const PAIR_DISTANCE = 18;
/**
 * The same, for a body further than k but within the same-headline distance: texts under one rubric
 * share words and phrases. Against 18 it cost at most 0.004 of recall on the benchmark variants.
 */
export const SAME_HEADLINE_PAIR_DISTANCE = 12;

export type DedupStageSettings = Pick<
  DedupConfig,
  | 'digestAlgorithm'
  | 'digestTtlMs'
  | 'urlSeenTtlMs'
  | 'nearDistance'
  | 'nearSameHeadlineDistance'
  | 'nearMinTokens'
  | 'nearResemblance'
  | 'templatePages'
  | 'templateRelearnMs'
  | 'harmfulVerdicts'
  | 'sharedJobs'
>;

export interface DedupStageOptions {
  fingerprints: FingerprintStore;
  pages: PageStore;
  settings: DedupStageSettings;
  judge?: Judge | null;
  metrics?: DedupMetrics;
  logger?: Logger;
  now?: () => number;
}

/** The near-duplicate rule's limits from the settings: the stage and `crawler check similar` read them so. */
export function nearLimitsOf(
  settings: Pick<DedupConfig, 'nearDistance' | 'nearSameHeadlineDistance' | 'nearMinTokens' | 'nearResemblance'>,
): NearLimits {
  return {
    body: settings.nearDistance,
    pairs: PAIR_DISTANCE,
    sameHeadline: settings.nearSameHeadlineDistance,
    sameHeadlinePairs: SAME_HEADLINE_PAIR_DISTANCE,
    minTokens: settings.nearMinTokens,
    resemblance: settings.nearResemblance,
  };
}

/**
 * crawl.parsed -> page store + crawl.pages, crawl.links, crawl.review and crawl.status. Each page
 * meets the decisions in order, each in its own file: its exact content (decide-exact.ts), its
 * stored version under today's template (recheck-stored-version.ts), a near duplicate among indexed
 * pages (find-near-duplicate.ts), its verdict (judge/verdict-cache.ts), the outlinks it passes on
 * (pass-outlinks.ts), and whether it is filed in the index (file-in-index.ts). Only new and changed
 * pages are stored; an unchanged or duplicate capture of bytes seen before is stored as a revisit
 * of them (record-revisit.ts). Every decision is a field of the status and a metric. A redirect
 * the fetcher followed is only archived (record-redirect.ts).
 */
export function createDedupStage(options: DedupStageOptions): Stage<ParsedPage> & { decisions: Map<string, number> } {
  const { pages, settings } = options;
  const now = options.now ?? Date.now;
  const ttlMs = settings.digestTtlMs;
  const metrics = options.metrics ?? createDedupMetrics();
  const verdicts = new VerdictCache(options.judge ?? null, settings.harmfulVerdicts, metrics, options.logger ?? null);
  const near = settings.nearDistance > 0;
  const byHeadline = settings.nearSameHeadlineDistance > settings.nearDistance;
  const recheckStoredVersion = createStoredVersionRecheck({ pages, algorithm: settings.digestAlgorithm, metrics });
  /** What one scope of fingerprints decides with. */
  const scopeDeciders = (fingerprints: FingerprintStore) => {
    const nearIndex = near ? new NearDuplicateIndex(fingerprints, { maxDistance: settings.nearDistance, ttlMs }) : null;
    return {
      fingerprints,
      index: nearIndex,
      templates: new SiteTemplates({
        store: fingerprints,
        samplePages: settings.templatePages,
        relearnAfterMs: settings.templateRelearnMs,
        ttlMs,
        now,
      }),
      decideExact: createExactDecider({ fingerprints, ttlMs }),
      findNearDuplicate: createNearDuplicateFinder({ fingerprints, limits: nearLimitsOf(settings) }),
      fileInIndex: nearIndex ? createIndexFiler({ index: nearIndex, byHeadline, ttlMs, now }) : null,
      refiler: nearIndex
        ? createSampledPageRefiler({
            fingerprints,
            pages,
            index: nearIndex,
            algorithm: settings.digestAlgorithm,
            minTokens: settings.nearMinTokens,
            byHeadline,
            ttlMs,
            maxPages: 4 * settings.templatePages,
          })
        : null,
    };
  };
  /** The deciders of each scope of fingerprints (a job's own, or the shared pool), made on its first page. */
  const scopes = new Map<string, ReturnType<typeof scopeDeciders>>();
  const scopeOf = (jobId: string) => {
    const scope = jobScopeOf(jobId, settings.sharedJobs);
    let deciders = scopes.get(scope);
    if (!deciders) {
      deciders = scopeDeciders(scopedFingerprints(options.fingerprints, scope));
      scopes.set(scope, deciders);
    }
    return deciders;
  };
  const decisions = new Map<string, number>();
  /** The stage's own tally keeps its older form (a stored noindex page counts as noindex); the metric counts both. */
  const count = (decision: string, noindex = false) => {
    const key = noindex ? 'noindex' : decision;
    decisions.set(key, (decisions.get(key) ?? 0) + 1);
    metrics.decision(decision);
    if (noindex) metrics.decision('noindex');
  };

  return {
    name: 'dedup',
    input: { topic: Topics.parsed, schema: Schemas.ParsedPage },
    outputs: [Topics.status, Topics.links, Topics.pages, Topics.review],
    decisions,
    // Two fetches of one URL racing (a lease lost in an outage) would each find the other's page unstored and store both.
    orderKey: (page) => page.url,

    async handle(page) {
      if (isRedirectCapture(page)) {
        await pages.putRedirects([redirectCaptureOf(page)]);
        return [];
      }
      const { fingerprints, index, templates, decideExact, findNearDuplicate, fileInIndex, refiler } = scopeOf(
        page.jobId,
      );
      const markup = isMarkup(page.contentType);
      const template = markup ? await templates.get(page.host) : null;
      const templateVersion = template?.version ?? NO_TEMPLATE;
      const analysis = analyzePage(page, template, settings.digestAlgorithm);
      const maybeNew = page.previousDigest !== analysis.digest;
      // Fingerprints are computed on first use: an unchanged page that does not re-file itself never pays for them.
      let subject: NearSubject | null | undefined;
      const searchable = (): NearSubject | null => {
        subject ??= subjectOf(page.host, analysis);
        return index !== null && subject !== null && subject.tokens >= settings.nearMinTokens ? subject : null;
      };
      const lookedUp = maybeNew ? searchable() : null;
      const [exact, previous, lookup, observed] = await Promise.all([
        decideExact(page, analysis, templateVersion, lookedUp?.sketch ?? null),
        maybeNew && page.previousDigest && !analysis.media
          ? fingerprints
              .get(DIGEST_NAMESPACE, [page.previousDigest])
              .then(([value]) => (value ? decodeRegistration(value) : null))
          : null,
        lookedUp ? index!.lookup(indexKeysOf(lookedUp, byHeadline)) : null,
        markup ? templates.observe(page.host, analysis.blocks, page.title, template) : null,
      ]);
      if (observed) metrics.template(observed);
      if (observed === 'learned') options.logger?.info({ host: page.host }, 'site template learned');
      if (lookup) metrics.candidates(lookup.pages.length);

      const rechecked = await recheckStoredVersion(page, analysis, template, templateVersion, exact, previous);
      let { decided, inheritedVerdict } = rechecked;
      const fresh = decided.change === 'new' || decided.change === 'changed';
      if (fresh && decided.ownsRegistration && lookup && lookup.pages.length > 0) {
        const near = await findNearDuplicate(page, lookedUp!, analysis.digest, lookup);
        if (near) {
          metrics.nearDuplicate(near.distance);
          decided = asNearDuplicate(decided, near);
          inheritedVerdict = near.registration.verdict;
        }
      }

      const verdict = await decideVerdict(verdicts, page, analysis, decided, inheritedVerdict);
      const stores = decided.change === 'new' || decided.change === 'changed';
      count(decided.change, page.noindex && stores);
      if (decided.change === 'duplicate' || decided.change === 'near_duplicate')
        options.logger?.warn(
          { url: page.url, duplicateOf: decided.duplicateOf, distance: decided.distance ?? undefined },
          decided.change === 'duplicate'
            ? 'page dropped as a duplicate: not stored, its links not followed'
            : 'page dropped as a near duplicate: not stored, only the links its original lacks followed',
        );

      const indexed = fileInIndex?.due(page, decided) ? searchable() : null;
      const filing = indexed ? fileInIndex!.file(page, indexed, analysis.digest, lookup) : null;
      const registration = registrationUpdate(
        exact,
        decided,
        verdict,
        inheritedVerdict,
        filing ? indexed!.sketch : null,
        ttlMs,
      );
      const writes: Promise<unknown>[] = [];
      if (filing) writes.push(filing);
      // Filed while the site's template is being learned: filed again once it is (refile-sampled-pages.ts).
      if (filing && observed) writes.push(refiler!.remember(page, templateVersion));
      if (registration) writes.push(fingerprints.set([registration]));
      // Awaited below, after the page store's put: a write failing meanwhile must fail this message
      // (retried), not go unhandled and end the process (a Redis outage did).
      const written = Promise.all(writes);
      written.catch(() => undefined);

      const emissions: Emission[] = [];
      if (stores && !page.noindex) {
        const storedPage = toStoredPage(page, {
          digest: analysis.digest,
          rawDigest: analysis.rawDigest,
          simhash: analysis.fingerprint ? simhashHex(analysis.fingerprint.body) : null,
          change: decided.change,
          verdict: verdict.label,
        });
        await pages.put([storedPage]);
        emissions.push(storedPageEmission(page, storedPage));
      }
      const revisit = revisitOf(page, decided, exact);
      if (revisit) await pages.putRevisits([revisit]);
      const outlinks = await passOutlinks(page, decided.change, decided.duplicateOf, {
        fingerprints,
        pages,
        urlSeenTtlMs: settings.urlSeenTtlMs,
        recovered: unrecordedFetch(page, exact) && (decided.change === 'unchanged' || stores),
      });
      if (outlinks.links.length + outlinks.held > 0) metrics.outlinks(outlinks.links.length, outlinks.held);
      if (outlinks.links.length > 0) emissions.push(outlinksEmission(page, outlinks.links));
      await written;
      if (observed === 'learned' && refiler) {
        const learned = await templates.get(page.host);
        if (learned) metrics.template('refiled', await refiler.refile(page.host, learned));
      }
      const review = reviewOf(verdicts, decided, verdict);
      if (review) {
        emissions.push(reviewEmission(page, analysis.digest, review.judgement, review.judge, now()));
        metrics.review();
      }
      emissions.push(
        pageStatusEmission(page, {
          outcome: page.noindex ? 'noindex' : 'ok',
          change: decided.change,
          duplicateOf: decided.duplicateOf,
          distance: decided.distance,
          digest: rechecked.recordedDigest ?? analysis.digest,
          rawDigest: analysis.rawDigest,
          verdict: verdict.label,
        }),
      );
      return emissions;
    },

    onGiveUp(page, error) {
      count('failed');
      return [
        pageStatusEmission(page, {
          outcome: 'processing_failed',
          errorCode: errorCode(error),
          errorMessage: errorMessage(error).slice(0, 500),
        }),
      ];
    },
  };
}
