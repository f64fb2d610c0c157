import { loadavg } from 'node:os';
import { silentLogger, urlId } from '@crawler/core';
import {
  bandKeys,
  bandScheme,
  fingerprintText,
  loadDedupConfig,
  NearDuplicateIndex,
  MIN_HEADLINE_WORDS,
  SIMHASH_NAMESPACE,
  siteTag,
  type TextFingerprint,
} from '@crawler/dedup';
import { extractHtml, extractLimitsOf, loadLinkextractConfig } from '@crawler/linkextract';
import { createRedisFingerprintStore, fingerprintKey, loadRedisConfig } from '@crawler/redis';
import { deleteKeysWithPrefix, randomKeyPrefix } from '@crawler/redis/testing';
import { Redis } from 'ioredis';
import type { StageComparison } from '../bench-results.js';
import { median } from '../stats.js';

const ROUNDS = 9;
const IN_FLIGHT = 8;
const WORD = /[\p{L}\p{N}]+/gu;

/** 32-bit FNV-1a: the least a fingerprint must do with a word is hash it once. */
function fnv1a(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Fastest of alternating rounds in CPU time, as extraction-speed.ts times extraction. */
function bestCpuRates(count: number, sides: (() => void)[]): number[] {
  const best = sides.map(() => Infinity);
  for (let round = 0; round < ROUNDS; round++) {
    sides.forEach((side, i) => {
      const started = cpuMs();
      side();
      best[i] = Math.min(best[i]!, cpuMs() - started);
    });
  }
  return best.map((ms) => (count / ms) * 1000);
}

async function pagesPerSecond(count: number, perPage: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) await perPage(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/**
 * Dedup's near-duplicate work per page, with dedup's default settings: the SimHash fingerprints of
 * the main text (body, word pairs, headline) against reading every word once and hashing it; and
 * the band-bucket lookup plus insert on Redis (NearDuplicateIndex) against the same SMEMBERS, SADD
 * and PEXPIRE commands sent as one plain ioredis pipeline per page.
 */
export async function measureSimhashStage(
  env: Record<string, string>,
  html: readonly { url: string; body: Buffer }[],
): Promise<StageComparison[]> {
  const settings = loadDedupConfig({ env: {} });
  const limits = extractLimitsOf(loadLinkextractConfig({ env: {} }));
  const pages = html.map(({ url, body }) => {
    const extracted = extractHtml(body.toString('utf8'), limits);
    return { title: extracted.title, text: extracted.text, url };
  });
  const [fingerprinted, words] = bestCpuRates(pages.length, [
    () => pages.forEach((page) => fingerprintText(page.title, page.text, 'en')),
    () => pages.forEach((page) => (page.text.toLowerCase().match(WORD) ?? []).forEach((word) => fnv1a(word))),
  ]);
  const loadAverage = loadavg()[0]!;
  const out: StageComparison[] = [
    {
      stage: 'SimHash fingerprints per page (body, word pairs, headline)',
      short: 'SimHash fingerprints',
      status: 'measured',
      ours: { what: 'fingerprintText on the main text, pages/s', perSecond: fingerprinted! },
      limit: { what: 'every word read once and hashed (FNV-1a), pages/s', perSecond: words! },
      ratio: fingerprinted! / words!,
      note: `${pages.length} test web pages; CPU time of one core, best of ${ROUNDS} alternating rounds`,
      loadAverage,
    },
  ];

  const config = loadRedisConfig({
    env: { REDIS_URL: env.REDIS_URL!, REDIS_KEY_PREFIX: randomKeyPrefix('bench-simhash') },
  });
  const store = createRedisFingerprintStore(config, silentLogger());
  const redis = new Redis(env.REDIS_URL!);
  const scheme = bandScheme(settings.nearDistance);
  try {
    const fingerprints: TextFingerprint[] = pages.map((page) => fingerprintText(page.title, page.text, 'en'));
    const entry = (i: number) => ({
      body: fingerprints[i]!.body,
      pairs: fingerprints[i]!.pairs,
      title: fingerprints[i]!.title,
      specific: fingerprints[i]!.headlineWords >= MIN_HEADLINE_WORDS,
      titleKey: fingerprints[i]!.titleKey,
      tokens: fingerprints[i]!.tokens,
      site: siteTag(new URL(pages[i]!.url).host),
      anchors: [],
      urlTag: urlId(pages[i]!.url).slice(0, 8),
      digest: i.toString(16).padStart(32, '0'),
    });
    const index = new NearDuplicateIndex(store, { maxDistance: settings.nearDistance, ttlMs: settings.digestTtlMs });
    await store.get('warm-up', ['x']);
    const ours: number[] = [];
    const plain: number[] = [];
    for (let round = 0; round < 3; round++) {
      ours.push(
        await pagesPerSecond(pages.length, async (i) => {
          await index.candidates(fingerprints[i]!.body);
          await index.add(entry(i), { headline: null, anchors: [] });
        }),
      );
      plain.push(
        await pagesPerSecond(pages.length, async (i) => {
          const keys = bandKeys(scheme, fingerprints[i]!.body).map((key) =>
            fingerprintKey(config.keyPrefix, `${SIMHASH_NAMESPACE}-plain`, key),
          );
          await redis.pipeline(keys.map((key) => ['smembers', key])).exec();
          await redis
            .pipeline(
              keys.flatMap((key) => [
                ['sadd', key, `${i}`],
                ['pexpire', key, String(settings.digestTtlMs)],
              ]),
            )
            .exec();
        }),
      );
    }
    out.push({
      stage: `Near-duplicate lookup + insert per page (Redis standalone, k = ${settings.nearDistance}, ${scheme.tables.length} band tables)`,
      short: 'near-duplicate lookup + insert, Redis',
      status: 'measured',
      ours: {
        what: `NearDuplicateIndex.candidates + add, ${IN_FLIGHT} pages in flight, pages/s`,
        perSecond: median(ours),
      },
      limit: {
        what: 'plain ioredis: the same SMEMBERS, then SADD + PEXPIRE, one pipeline each, pages/s',
        perSecond: median(plain),
      },
      ratio: median(ours.map((rate, i) => rate / plain[i]!)),
      note: `${pages.length} pages, median of 3 alternating rounds`,
      loadAverage: loadavg()[0]!,
    });
    return out;
  } finally {
    await store.close();
    redis.disconnect();
    await deleteKeysWithPrefix(config);
  }
}
