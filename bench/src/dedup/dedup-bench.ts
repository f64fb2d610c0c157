import { measureSimhashScale } from './simhash-scale.js';
import { measureThroughput, parsedCorpus, throughputStores } from './dedup-throughput.js';
import { measureVerdictCache, startClassifier, verdictJudges } from './verdict-cache-bench.js';

const fixed = (value: number, digits = 2) => value.toFixed(digits);

/**
 * `node bench/dist/dedup/dedup-bench.js [--max-stored N] [--skip-scale]` (after `npm run build`;
 * the local stack's Redis must be up): dedup decisions per second per worker, the verdict cache on
 * a re-crawl, and the SimHash index lookup cost from 10k to 1M stored pages.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const maxStored = Number(args[args.indexOf('--max-stored') + 1] ?? 1_000_000) || 1_000_000;
  const pages = await parsedCorpus();

  process.stdout.write(
    `Decisions per worker (${pages.length - 1} pages: the article benchmark and its variants; no page writes)\n`,
  );
  process.stdout.write(
    '| store | decisions/s (wall) | CPU ms per page, dedup | CPU ms per page, Redis servers |\n|---|---|---|---|\n',
  );
  for (const [name, open] of throughputStores()) {
    const row = await measureThroughput(name, pages, open);
    process.stdout.write(
      `| ${row.store} | ${fixed(row.pagesPerSecond, 0)} | ${fixed(row.cpuMsPerPage)} | ${row.redisCpuMsPerPage === null ? '-' : fixed(row.redisCpuMsPerPage)} |\n`,
    );
  }

  const classifier = await startClassifier();
  try {
    process.stdout.write('\nVerdict cache on a re-crawl (5% of pages changed)\n');
    process.stdout.write(
      '| judge | judge calls per page (cache / re-judge all) | CPU ms per page (cache / re-judge all) | ratio |\n|---|---|---|---|\n',
    );
    for (const [name, judge] of verdictJudges(classifier.url)) {
      const row = await measureVerdictCache(name, pages, judge, 0.05);
      process.stdout.write(
        `| ${row.judge} | ${fixed(row.callsPerPage.cached, 3)} / ${fixed(row.callsPerPage.rejudged, 3)} | ${fixed(row.msPerPage.cached, 3)} / ${fixed(row.msPerPage.rejudged, 3)} | ${fixed(row.ratio, 1)}x |\n`,
      );
    }
  } finally {
    await classifier.close();
  }

  if (args.includes('--skip-scale')) return;
  process.stdout.write('\nSimHash index in Redis (standalone), k = 3: lookup cost as it fills\n');
  process.stdout.write(
    '| stored pages | lookup, median (p90) µs | entries read per lookup | server µs per lookup | found within 3 bits | Redis bytes per page |\n|---|---|---|---|---|---|\n',
  );
  const steps = [10_000, 100_000, 1_000_000].filter((step) => step <= maxStored);
  for (const row of await measureSimhashScale(steps)) {
    process.stdout.write(
      `| ${row.stored.toLocaleString('en-US')} | ${fixed(row.lookupMicros.median, 0)} (${fixed(row.lookupMicros.p90, 0)}) | ${fixed(row.candidates)} | ${fixed(row.serverMicrosPerLookup, 1)} | ${fixed(row.recall * 100, 1)}% | ${fixed(row.bytesPerPage, 0)} |\n`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
