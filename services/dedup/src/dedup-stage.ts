import { errorCode, errorMessage, Schemas, Topics, urlId } from '@crawler/core';
import type { Emission, FingerprintStore, Logger, PageStore, ParsedPage, Stage } from '@crawler/core';
import { analyzePage, type PageAnalysis } from './analyze-page.js';
import type { DedupConfig } from './config.js';
import { createDedupMetrics, type DedupMetrics } from './dedup-metrics.js';
import {
  outlinksEmission,
  reviewEmission,
  statusEmission,
  storedPageEmission,
  toStoredPage,
} from './dedup-emissions.js';
import { decideChange, needsTemplateRecheck, type ChangeVerdict } from './decide-change.js';
import { simhashHex } from './fingerprint/simhash.js';
import type { Judge } from './judge/judge.js';
import { VerdictCache, type ResolvedVerdict } from './judge/verdict-cache.js';
import { NearDuplicateIndex, type Lookup } from './near/near-duplicate-index.js';
import { acceptsSameSite, nearestMatches, specificHeadline } from './near/nearest-match.js';
import { isMarkup } from './content-kind.js';
import { decodeRegistration, encodeRegistration, type Registration } from './registration.js';
import { NO_TEMPLATE, type SiteTemplate } from './template/site-template.js';
import { SiteTemplates } from './template/site-templates.js';
import { filterSeenLinks } from './url-seen-filter.js';

export const DIGEST_NAMESPACE = 'digest';
export const RAW_NAMESPACE = 'raw';
export const MEDIA_NAMESPACE = 'media';
/** The first fetch of each URL (its fetch time): a fetch repeated before the link base knew of the first one is recognised. */
export const FETCH_NAMESPACE = 'fetch';

/** Word-pair SimHash agreement a near duplicate needs besides the body's k bits (see text-fingerprint.ts). */
export const PAIR_DISTANCE = 18;
/**
 * The same, for a body further than k but within the same-headline distance: texts under one rubric
 * share words and phrases. Against 18 it cost at most 0.004 of recall on the benchmark variants.
 */
export const SAME_HEADLINE_PAIR_DISTANCE = 12;
/** Near-duplicate candidates whose registration is read before giving up: past these, it is noise. */
const MAX_CANDIDATES_RESOLVED = 3;

export type DedupStageSettings = Pick<
  DedupConfig,
  | 'digestAlgorithm'
  | 'digestTtlMs'
  | 'urlSeenTtlMs'
  | 'nearDistance'
  | 'nearTitleDistance'
  | 'nearSameHeadlineDistance'
  | 'nearMinTokens'
  | 'templatePages'
  | 'templateRelearnMs'
  | 'harmfulVerdicts'
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

interface Decided extends ChangeVerdict {
  /** The registration whose verdict applies and is updated (this page's, or the first copy's). */
  owner: Registration;
  /** The owner's digest: where a fresh verdict is written. */
  ownerDigest: string;
}

/**
 * crawl.parsed -> page store + crawl.pages, crawl.links, crawl.review and crawl.status. Three
 * levels, cheapest first: URLs (outlinks already passed on are held back), exact content (digests
 * of the raw body and of the main text without the site's template) and near duplicates (SimHash,
 * permuted-block index). Only new and changed pages are stored and pass their outlinks on; an
 * unchanged page, a duplicate and a near duplicate contribute only their status (Heritrix's
 * ChangeEvaluator idea). Every decision is a field of the status and a metric.
 */
export function createDedupStage(options: DedupStageOptions): Stage<ParsedPage> & { decisions: Map<string, number> } {
  const { fingerprints, pages, settings } = options;
  const now = options.now ?? Date.now;
  const metrics = options.metrics ?? createDedupMetrics();
  const verdicts = new VerdictCache(options.judge ?? null, settings.harmfulVerdicts, metrics, options.logger ?? null);
  const templates = new SiteTemplates({
    store: fingerprints,
    samplePages: settings.templatePages,
    relearnAfterMs: settings.templateRelearnMs,
    ttlMs: settings.digestTtlMs,
    now,
  });
  const index =
    settings.nearDistance > 0
      ? new NearDuplicateIndex(fingerprints, { maxDistance: settings.nearDistance, ttlMs: settings.digestTtlMs })
      : null;
  const thresholds = {
    body: settings.nearDistance,
    title: settings.nearTitleDistance,
    pairs: PAIR_DISTANCE,
    sameHeadline: settings.nearSameHeadlineDistance,
    sameHeadlinePairs: SAME_HEADLINE_PAIR_DISTANCE,
  };
  const byHeadline = settings.nearSameHeadlineDistance > settings.nearDistance;
  const ttlMs = settings.digestTtlMs;
  const decisions = new Map<string, number>();
  /** The stage's own tally keeps its older form (a stored noindex page counts as noindex); the metric counts both. */
  const count = (decision: string, noindex = false) => {
    const key = noindex ? 'noindex' : decision;
    decisions.set(key, (decisions.get(key) ?? 0) + 1);
    metrics.decision(decision);
    if (noindex) metrics.decision('noindex');
  };

  /** Registers both digests (media: the raw one, in its own namespace) and decides what they allow. */
  async function decideExact(
    page: ParsedPage,
    analysis: PageAnalysis,
    template: string,
  ): Promise<Decided & { rawSeenBefore: boolean; fetchedBefore: boolean }> {
    const own: Registration = {
      url: page.url,
      fetchedAt: page.fetchedAt,
      template,
      verdict: null,
      nearOf: null,
      distance: null,
    };
    const value = encodeRegistration(own);
    const namespace = analysis.media ? MEDIA_NAMESPACE : DIGEST_NAMESPACE;
    const entries = [{ namespace, key: analysis.digest, value, ttlMs }];
    const withRaw = !analysis.media && analysis.rawDigest !== analysis.digest;
    if (withRaw) entries.push({ namespace: RAW_NAMESPACE, key: analysis.rawDigest, value, ttlMs });
    // Only a fetch the link base knows nothing of can be a repeat of one it has not recorded yet.
    if (page.previousDigest === null)
      entries.push({ namespace: FETCH_NAMESPACE, key: urlId(page.url), value: String(page.fetchedAt), ttlMs });
    const [digestResult, ...rest] = await fingerprints.putIfAbsent(entries);
    const rawResult = withRaw ? rest.shift() : undefined;
    const fetchResult = rest.shift();
    const registeredBy =
      digestResult!.created || digestResult!.existing === null ? null : decodeRegistration(digestResult!.existing);
    const decided = decideChange({
      url: page.url,
      fetchedAt: page.fetchedAt,
      digest: analysis.digest,
      previousDigest: page.previousDigest,
      registeredBy,
    });
    const rawFirst =
      rawResult && !rawResult.created && rawResult.existing !== null ? decodeRegistration(rawResult.existing) : null;
    const fetchedBefore =
      fetchResult !== undefined &&
      !fetchResult.created &&
      fetchResult.existing !== null &&
      Number(fetchResult.existing) !== page.fetchedAt;
    return {
      ...decided,
      owner: registeredBy ?? own,
      ownerDigest: analysis.digest,
      rawSeenBefore: rawFirst !== null && rawFirst.url === page.url && rawFirst.fetchedAt !== page.fetchedAt,
      fetchedBefore,
    };
  }

  /** The last stored version of another fetch, digested with today's template: same content? */
  async function recheckStored(
    page: ParsedPage,
    template: SiteTemplate | null,
    digest: string,
  ): Promise<'unchanged' | 'changed' | 'missing'> {
    // Any other version: a redelivered earlier fetch may be decided after the later one.
    const stored = (await pages.get(page.url, { versions: 2 })).find((version) => version.fetchedAt !== page.fetchedAt);
    if (!stored) return 'missing';
    return analyzePage(stored, template, settings.digestAlgorithm).digest === digest ? 'unchanged' : 'changed';
  }

  /** The closest indexed page of another URL within the thresholds, with its registration. */
  async function findNearDuplicate(
    page: ParsedPage,
    analysis: PageAnalysis,
    lookup: Lookup,
  ): Promise<{ registration: Registration; digest: string; distance: number } | null> {
    // A headline not looked up, or carried by many texts, does not widen the body distance.
    const limits = lookup.headlineOpen ? thresholds : { ...thresholds, sameHeadline: 0 };
    const matches = nearestMatches(
      analysis.fingerprint!,
      urlId(page.url).slice(0, 8),
      analysis.digest,
      lookup.pages,
      limits,
    ).slice(0, MAX_CANDIDATES_RESOLVED);
    if (matches.length === 0) return null;
    const values = await fingerprints.get(
      DIGEST_NAMESPACE,
      matches.map((match) => match.page.digest),
    );
    for (const [i, match] of matches.entries()) {
      const registration = values[i] ? decodeRegistration(values[i]!) : null;
      if (!registration || registration.url === page.url) continue;
      if (new URL(registration.url).host === page.host && !acceptsSameSite(match, limits)) continue;
      return { registration, digest: match.page.digest, distance: match.distance };
    }
    return null;
  }

  return {
    name: 'dedup',
    input: { topic: Topics.parsed, schema: Schemas.ParsedPage },
    outputs: [Topics.status, Topics.links, Topics.pages, Topics.review],
    decisions,

    async handle(page) {
      const markup = isMarkup(page.contentType);
      const template = markup ? await templates.get(page.host) : null;
      const analysis = analyzePage(page, template, settings.digestAlgorithm);
      const templateVersion = template?.version ?? NO_TEMPLATE;
      const maybeNew = page.previousDigest !== analysis.digest;
      // analysis.fingerprint is computed on first use: an unchanged page that does not re-index itself never pays for it.
      const searchable = () =>
        index !== null && analysis.fingerprint !== null && analysis.fingerprint.tokens >= settings.nearMinTokens;
      // Only a specific headline is looked up and filed under (see nearest-match.ts).
      const byOwnHeadline = () => byHeadline && specificHeadline(analysis.fingerprint!);
      const [exact, previous, lookup, observed] = await Promise.all([
        decideExact(page, analysis, templateVersion),
        maybeNew && page.previousDigest && !analysis.media
          ? fingerprints
              .get(DIGEST_NAMESPACE, [page.previousDigest])
              .then(([value]) => (value ? decodeRegistration(value) : null))
          : null,
        maybeNew && searchable()
          ? index!.lookup(analysis.fingerprint!.body, byOwnHeadline() ? analysis.fingerprint!.title : null)
          : null,
        markup ? templates.observe(page.host, analysis.blocks, page.title, template) : null,
      ]);
      if (observed) metrics.template(observed);
      if (observed === 'learned') options.logger?.info({ host: page.host }, 'site template learned');
      if (lookup) metrics.candidates(lookup.pages.length);

      let decided: Decided = exact;
      let inheritedVerdict: string | null = null;
      // "new" for a URL fetched before: the link base had not recorded that fetch (a message redelivered
      // after a crash or rebalance), and the earlier version may differ only by the template learned since.
      const refetched = exact.change === 'new' && exact.fetchedBefore;
      if (refetched || needsTemplateRecheck(exact.change, previous, templateVersion)) {
        // Same bytes as an earlier fetch of this URL cannot be a change, whatever the template did.
        const result = exact.rawSeenBefore ? 'unchanged' : await recheckStored(page, template, analysis.digest);
        metrics.recheck(result);
        if (result === 'unchanged') {
          decided = { ...exact, change: 'unchanged' };
          inheritedVerdict = previous?.verdict ?? null;
        } else if (result === 'changed' && refetched) {
          decided = { ...exact, change: 'changed' };
        }
      }
      if ((decided.change === 'new' || decided.change === 'changed') && lookup && lookup.pages.length > 0) {
        const near = await findNearDuplicate(page, analysis, lookup);
        if (near) {
          metrics.nearDuplicate(near.distance);
          decided = {
            ...decided,
            change: 'near_duplicate',
            duplicateOf: near.registration.url,
            distance: near.distance,
            owner: { ...decided.owner, nearOf: near.registration.url, distance: near.distance },
          };
          inheritedVerdict = near.registration.verdict;
        }
      }

      const stored = decided.owner.verdict ?? inheritedVerdict;
      const verdict: ResolvedVerdict = analysis.media
        ? { label: null, judged: false, judgement: null }
        : await verdicts.resolve(stored, { url: page.url, title: page.title, text: analysis.text, lang: page.lang });
      const registrationChanged =
        verdict.judged ||
        (inheritedVerdict !== null && decided.owner.verdict === null) ||
        decided.owner.nearOf !== exact.owner.nearOf;
      const writes: Promise<unknown>[] = [];
      if (registrationChanged)
        writes.push(
          fingerprints.set([
            {
              namespace: DIGEST_NAMESPACE,
              key: decided.ownerDigest,
              value: encodeRegistration({ ...decided.owner, verdict: verdict.label }),
              ttlMs,
            },
          ]),
        );

      const stores = decided.change === 'new' || decided.change === 'changed';
      count(decided.change, page.noindex && stores);
      if (decided.change === 'duplicate' || decided.change === 'near_duplicate')
        options.logger?.warn(
          { url: page.url, duplicateOf: decided.duplicateOf, distance: decided.distance ?? undefined },
          `page dropped as a ${decided.change === 'duplicate' ? 'duplicate' : 'near duplicate'}: not stored, its links not followed`,
        );
      const emissions: Emission[] = [];
      // Bucket TTLs are not refreshed by lookups: an unchanged page re-indexes itself when its entry
      // may be getting old, or is new (its digest was registered just now). Only a page that found
      // room in its headline's set (or is in it already) is filed under it: the set stays bounded.
      const reindex =
        decided.change === 'unchanged' &&
        (decided.owner.fetchedAt === page.fetchedAt || now() - decided.owner.fetchedAt > ttlMs / 2);
      if ((stores || reindex) && searchable()) {
        const { body, pairs, title } = analysis.fingerprint!;
        const indexed = { body, pairs, title, urlTag: urlId(page.url).slice(0, 8), digest: analysis.digest };
        // An unchanged page made no lookup: it asks its headline's set, or its headline entry would expire.
        const underHeadline = lookup ? lookup.headlineOpen : byOwnHeadline() && (await index!.headlineOpen(indexed));
        writes.push(index!.add(indexed, underHeadline));
      }
      if (stores && !page.noindex) {
        const body = analysis.fingerprint?.body;
        const storedPage = toStoredPage(page, {
          digest: analysis.digest,
          rawDigest: analysis.rawDigest,
          simhash: body === undefined ? null : simhashHex(body),
          change: decided.change,
          verdict: verdict.label,
        });
        await pages.put([storedPage]);
        emissions.push(storedPageEmission(page, storedPage));
      }
      if (stores && page.links.length > 0) {
        const { links, seen } =
          settings.urlSeenTtlMs > 0
            ? await filterSeenLinks(fingerprints, page.links, page, settings.urlSeenTtlMs)
            : { links: page.links, seen: 0 };
        metrics.outlinks(links.length, seen);
        if (links.length > 0) emissions.push(outlinksEmission(page, links));
      }
      await Promise.all(writes);
      if (decided.change !== 'unchanged' && verdict.judgement && verdicts.isHarmful(verdict.label)) {
        const judgement = verdict.judged
          ? verdict.judgement
          : { ...verdict.judgement, reasons: [`same content as ${decided.duplicateOf ?? decided.owner.url}`] };
        emissions.push(
          reviewEmission(page, analysis.digest, judgement, verdict.judged ? verdicts.judgeName : 'cache', now()),
        );
        metrics.review();
      }
      emissions.push(
        statusEmission(page, {
          outcome: page.noindex ? 'noindex' : 'ok',
          change: decided.change,
          duplicateOf: decided.duplicateOf,
          distance: decided.distance,
          digest: analysis.digest,
          rawDigest: analysis.rawDigest,
          verdict: verdict.label,
        }),
      );
      return emissions;
    },

    onGiveUp(page, error) {
      count('failed');
      return [
        statusEmission(page, {
          outcome: 'processing_failed',
          change: null,
          duplicateOf: null,
          distance: null,
          digest: null,
          rawDigest: null,
          verdict: null,
          errorCode: errorCode(error),
          errorMessage: errorMessage(error).slice(0, 500),
        }),
      ];
    },
  };
}
