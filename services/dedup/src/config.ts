import { loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';
import { MAX_INDEXED_DISTANCE } from './near/band-scheme.js';

const DAY_MS = 24 * 3600 * 1000;

/** Every dedup setting, with its environment variable and default. */
export const dedupSettings = {
  concurrency: setting(
    'DEDUP_CONCURRENCY',
    z.number().int().min(1).default(32),
    'Pages decided at once (store writes overlap).',
  ),
  digestAlgorithm: setting(
    'DEDUP_DIGEST_ALGORITHM',
    z.enum(['md5', 'sha1', 'sha256']).default('md5'),
    'Hash of content digests (raw body and de-noised main text).',
  ),
  digestTtlMs: setting(
    'DEDUP_DIGEST_TTL_MS',
    z
      .number()
      .int()
      .min(1000)
      .default(30 * DAY_MS),
    "How long a digest, its first URL and verdict, a SimHash and a site template are remembered; a digest's time is refreshed on every hit.",
  ),
  urlSeenTtlMs: setting(
    'DEDUP_URL_SEEN_TTL_MS',
    z
      .number()
      .int()
      .min(0)
      .default(30 * DAY_MS),
    'How long an outlink URL already passed to the scheduler is held back when other pages link it again: forgotten between half this and this after its last sighting (a Bloom filter in two generations of half this, docs/DEDUP.md). 0: pass every link on.',
  ),
  nearDistance: setting(
    'DEDUP_NEAR_DISTANCE',
    z.number().int().min(0).max(MAX_INDEXED_DISTANCE).default(3),
    `Most differing bits (k) of two 64-bit SimHashes of main text that make pages near-duplicate candidates (verified by DEDUP_NEAR_RESEMBLANCE); 0 turns near-duplicate search off. Index tables: 10 at 3, 35 at 4, 56 at ${MAX_INDEXED_DISTANCE}.`,
  ),
  nearSameHeadlineDistance: setting(
    'DEDUP_NEAR_SAME_HEADLINE_DISTANCE',
    z.number().int().min(0).max(64).default(6),
    "Most differing bits of two main texts' SimHashes that make pages with the same headline (three content words or more, not the site's name, not a guess) candidates, found through a lookup by headline: a reprint keeps its headline while captions and credit lines move its text. At most DEDUP_NEAR_DISTANCE: no headline lookup.",
  ),
  nearResemblance: setting(
    'DEDUP_NEAR_RESEMBLANCE',
    z.number().min(0.05).max(1).default(0.5),
    'Least share of their runs of four content words two texts must have in common (estimated from 32-hash sketches) for a candidate the index found (SimHash, headline or anchor) to be a near duplicate.',
  ),
  nearMinTokens: setting(
    'DEDUP_NEAR_MIN_TOKENS',
    z.number().int().min(1).default(12),
    'Content words a de-noised main text needs to be compared for near duplicates; shorter pages are only compared exactly.',
  ),
  sharedJobs: setting(
    'DEDUP_SHARED_JOBS',
    z.array(z.string().min(1)).default([]),
    'Crawl job ids whose pages are compared with one another\'s, in one shared pool of fingerprints (the layout before jobs had their own); "*" for all. Every other job is compared only with its own pages: content one job saw never makes another job\'s page a duplicate or holds back its links.',
  ),
  templatePages: setting(
    'DEDUP_TEMPLATE_PAGES',
    z.number().int().min(3).default(10),
    'Distinct pages of a site compared before its template (the blocks it repeats: navigation, ads, counters, timestamps) is learned and stripped before hashing.',
  ),
  templateRelearnMs: setting(
    'DEDUP_TEMPLATE_RELEARN_MS',
    z
      .number()
      .int()
      .min(60_000)
      .default(7 * DAY_MS),
    'A site template older than this is learned again from fresh pages; pages it does not fit (a new section, a redesign) are learned from as soon as enough of them are seen.',
  ),
  judge: setting(
    'DEDUP_JUDGE',
    z.enum(['none', 'rules', 'http']).default('none'),
    'Judge of new content: none, rules (keyword and regex lists per category, DEDUP_JUDGE_RULES_FILE) or http (an external classifier, DEDUP_JUDGE_URL).',
  ),
  judgeRulesFile: setting(
    'DEDUP_JUDGE_RULES_FILE',
    z.string().min(1).optional(),
    'JSON rule file of the rules judge: {"categories":[{"name","verdict","keywords","patterns","minMatches"}]}.',
  ),
  judgeUrl: setting(
    'DEDUP_JUDGE_URL',
    z.url({ protocol: /^https?$/ }).optional(),
    'Classifier the http judge POSTs {url,title,lang,text} to; it answers {verdict,category?,reasons?}.',
    { secret: true },
  ),
  judgeToken: setting('DEDUP_JUDGE_TOKEN', z.string().min(1).optional(), 'Bearer token sent to the classifier.', {
    secret: true,
  }),
  judgeTimeoutMs: setting(
    'DEDUP_JUDGE_TIMEOUT_MS',
    z.number().int().min(1).default(5000),
    'Longest one classifier call may take.',
  ),
  judgeAttempts: setting(
    'DEDUP_JUDGE_ATTEMPTS',
    z.number().int().min(1).default(3),
    'Classifier calls per page before it is passed on unjudged (judged on its next sighting).',
  ),
  harmfulVerdicts: setting(
    'DEDUP_HARMFUL_VERDICTS',
    z.array(z.string().min(1)).default(['harmful']),
    'Verdicts that put a page on crawl.review for people to look at.',
  ),
};

export type DedupConfig = ConfigOf<typeof dedupSettings>;

export function loadDedupConfig(options?: LoadOptions): DedupConfig {
  return loadConfig('dedup', dedupSettings, options);
}
