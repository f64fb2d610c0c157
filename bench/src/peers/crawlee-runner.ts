import { createRequire } from 'node:module';
import { CheerioCrawler, Configuration, log, LogLevel } from '@crawlee/cheerio';
import { runPeer } from './runner-main.js';

/**
 * Crawlee's CheerioCrawler as its documentation shows it: enqueueLinks() on every page (default
 * strategy: same hostname), in-memory storage, robots.txt obeyed by its own `respectRobotsTxtFile`
 * (fetched once per origin and checked before every request). Concurrency is pinned (min = max)
 * so its autoscaling cannot run with less than the others. Every page its handler gets counts as
 * kept, as if it were pushed to a dataset.
 */
await runPeer(async (config) => {
  log.setLevel(LogLevel.OFF);
  const ok: string[] = [];
  let last = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: config.concurrency,
      maxConcurrency: config.concurrency,
      maxRequestsPerCrawl: config.maxPages,
      respectRobotsTxtFile: true,
      // A given User-Agent replaces the browser-like one got-scraping generates (robots.txt requests keep that one).
      preNavigationHooks: config.userAgent
        ? [
            (_context, gotOptions) =>
              void (gotOptions.headers = { ...gotOptions.headers, 'user-agent': config.userAgent }),
          ]
        : [],
      async requestHandler({ request, enqueueLinks }) {
        ok.push(request.loadedUrl ?? request.url);
        last = performance.now();
        await enqueueLinks();
      },
    },
    new Configuration({ persistStorage: false }),
  );
  const version = (createRequire(import.meta.url)('@crawlee/cheerio/package.json') as { version: string }).version;
  return async () => {
    const started = performance.now();
    await crawler.run(config.seeds);
    return {
      pages: ok.length,
      okUrls: ok,
      storedUrls: ok,
      seconds: (performance.now() - started) / 1000,
      lastPageSeconds: (last - started) / 1000,
      notes: { version },
    };
  };
});
