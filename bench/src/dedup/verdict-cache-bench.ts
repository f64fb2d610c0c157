import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type ParsedPage, type StageContext, type StatusUpdate } from '@crawler/core';
import { createDedupStage, createHttpJudge, createRulesJudge, loadDedupConfig, type Judge } from '@crawler/dedup';
import { MemoryFingerprintStore } from '@crawler/embedded';
import { discardPages } from './dedup-throughput.js';

export interface VerdictCacheRow {
  judge: string;
  pages: number;
  /** Share of the re-crawled pages whose content changed (new fingerprints). */
  changedShare: number;
  /** Judge calls per re-crawled page, with the cache and re-judging everything. */
  callsPerPage: { cached: number; rejudged: number };
  /** Cost per re-crawled page (ms): CPU of this process, which also runs the classifier stand-in. */
  msPerPage: { cached: number; rejudged: number };
  ratio: number;
}

const ROUNDS = 5;

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * A local stand-in for a classifier: it spends `cpuMs` of CPU per request (what a model would)
 * and answers a verdict. `/classify/<ms>` picks the cost per call.
 */
export async function startClassifier(): Promise<{ url: (cpuMs: number) => string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const until = performance.now() + Number(/\/classify\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      let spin = 0;
      while (performance.now() < until) spin++;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          verdict: body.includes('casino') ? 'harmful' : 'ok',
          category: null,
          reasons: [`spins ${spin > 0 ? 'done' : 'none'}`],
        }),
      );
    });
  });
  // Longer than the client's idle keep-alive, so the server never closes a socket the client is reusing.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: (cpuMs) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/classify/${cpuMs}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A rule list of realistic size: 12 categories of 40 keywords and 3 patterns each. */
export function benchRules(): Judge {
  const words = 'casino jackpot betting wager roulette poker slots lottery odds bookmaker'.split(' ');
  return createRulesJudge({
    categories: Array.from({ length: 12 }, (_, c) => ({
      name: `category-${c}`,
      keywords: Array.from({ length: 40 }, (_, k) => `${words[(c + k) % words.length]}${k}x${c}`),
      patterns: [
        `\\b(buy|sell)\\s+cheap\\s+item${c}\\b`,
        `\\bfree\\s+spins?\\s+${c}\\b`,
        `\\bclick\\s+here\\s+now${c}\\b`,
      ],
      minMatches: 1,
    })),
  });
}

/**
 * The verdict cache on a re-crawl: the benchmark pages are crawled once (every page judged), then
 * re-crawled with `changedShare` of them edited. With the cache only the edited pages are judged;
 * the baseline judges every page again. Both rounds run the whole dedup stage; their CPU per page
 * is compared in alternating rounds, fastest of ROUNDS each (the classifier runs in this process,
 * so its work counts).
 */
export async function measureVerdictCache(
  name: string,
  pages: readonly ParsedPage[],
  createJudge: () => Judge,
  changedShare: number,
): Promise<VerdictCacheRow> {
  const settings = loadDedupConfig({ env: {} });
  const changedEvery = Math.round(1 / changedShare);
  const best = { cached: Infinity, rejudged: Infinity };
  const calls = { cached: 0, rejudged: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['cached', 'rejudged'] as const) {
      let judged = 0;
      const inner = createJudge();
      const judge: Judge = { name: inner.name, judge: (input) => (judged++, inner.judge(input)) };
      const store = new MemoryFingerprintStore();
      const stage = createDedupStage({
        fingerprints: store,
        pages: discardPages,
        settings,
        judge: mode === 'cached' ? judge : null,
        logger: silentLogger(),
      });
      const digests = new Map<string, string>();
      for (const page of pages)
        digests.set(page.url, ((await stage.handle(page, {} as StageContext)).at(-1)!.value as StatusUpdate).digest!);
      judged = 0;
      const recrawl = pages.map((page, i) => ({
        ...page,
        fetchedAt: page.fetchedAt + 86_400_000,
        previousDigest: digests.get(page.url) ?? null,
        text:
          i % changedEvery === 0
            ? `${page.text}\nUpdate: the story was corrected on Friday after readers wrote in.`
            : page.text,
      }));
      const started = cpuMs();
      for (const page of recrawl) {
        await stage.handle(page, {} as StageContext);
        if (mode === 'rejudged')
          await judge.judge({ url: page.url, title: page.title, text: page.text, lang: page.lang });
      }
      best[mode] = Math.min(best[mode], (cpuMs() - started) / recrawl.length);
      calls[mode] = judged / recrawl.length;
      await store.close();
    }
  }
  return {
    judge: name,
    pages: pages.length,
    changedShare,
    callsPerPage: calls,
    msPerPage: best,
    ratio: best.rejudged / best.cached,
  };
}

/** The rules judge, and an HTTP classifier costing 2 ms (a small model) and 20 ms (a larger one) per call. */
export function verdictJudges(classifierUrl: (cpuMs: number) => string): [string, () => Judge][] {
  return [
    ['rules (12 categories, 480 keywords, 36 patterns)', benchRules],
    ...[2, 20].map((cpuMs): [string, () => Judge] => [
      `HTTP classifier, ${cpuMs} ms CPU per call`,
      () => createHttpJudge({ url: classifierUrl(cpuMs), timeoutMs: 5000, attempts: 3 }),
    ]),
  ];
}
