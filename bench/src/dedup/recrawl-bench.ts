import { createRedisFingerprintStore, loadRedisConfig } from '@crawler/redis';
import { silentLogger } from '@crawler/core';
import { METHODS, runRecrawlExperiment, share, type RecrawlResult } from './recrawl-experiment.js';
import { noisyNewsRecrawlSite, testWebNewsRecrawlSite } from './recrawl-sites.js';

const LABELS = { raw: 'raw body MD5', mainText: 'main text (no template)', denoised: 'de-noised (learned template)' };

/** Prints the experiment's table: per method, unchanged pages treated as changed and changed pages caught. */
export function formatRecrawlResult(result: RecrawlResult): string {
  const { total } = result;
  const lines = [
    `${result.site}: ${result.pages} pages, ${result.rounds.length} re-crawl rounds, ${total.unchanged} unchanged and ${total.changed} changed page fetches`,
    `  ${'method'.padEnd(30)} ${'unchanged treated as changed'.padEnd(30)} changed caught (recall)`,
    ...METHODS.map(
      (method) =>
        `  ${LABELS[method].padEnd(30)} ${`${(100 * share(total.falseChanges[method], total.unchanged)).toFixed(1)}% (${total.falseChanges[method]})`.padEnd(30)} ${(100 * share(total.hits[method], total.changed)).toFixed(1)}% (${total.hits[method]})`,
    ),
    `  per round, de-noised: ${result.rounds.map((r) => `${r.round}: ${r.falseChanges.denoised}/${r.unchanged} false, ${r.hits.denoised}/${r.changed} caught`).join('; ')}`,
    `  dedup decisions: ${Object.entries(result.decisions)
      .map(([name, count]) => `${name} ${count}`)
      .join(', ')}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** `node bench/dist/dedup/recrawl-bench.js [--redis]`: both sites, six hourly rounds each. */
async function main(): Promise<void> {
  const redis = process.argv.includes('--redis');
  for (const open of [noisyNewsRecrawlSite, testWebNewsRecrawlSite]) {
    const site = await open(1);
    const config = redis
      ? loadRedisConfig({ env: { ...process.env, REDIS_KEY_PREFIX: `bench-recrawl-${process.pid}-${Date.now()}:` } })
      : null;
    const store = config ? createRedisFingerprintStore(config, silentLogger()) : undefined;
    try {
      process.stdout.write(formatRecrawlResult(await runRecrawlExperiment(site, { rounds: 6, store })));
    } finally {
      await store?.close();
      await site.close();
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
