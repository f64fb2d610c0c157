import { describe, expect, it } from 'vitest';
import { runRecrawlExperiment, share } from './recrawl-experiment.js';
import { noisyNewsRecrawlSite, testWebNewsRecrawlSite } from './recrawl-sites.js';

// The classic experiment, six hourly re-crawl rounds: raw hashes call every noisy page changed;
// the de-noised digest must call under 2% of unchanged pages changed and catch over 98% of
// changed ones. Measured: 0.0% and 100% on both sites (docs/BENCHMARKS.md).
describe('re-crawl change detection', () => {
  for (const [name, open] of [
    ['the noisy news site', noisyNewsRecrawlSite],
    ['the test web news host', testWebNewsRecrawlSite],
  ] as const) {
    it(`on ${name}: de-noised digests miss the noise and catch the changes`, async () => {
      const site = await open(2);
      try {
        const { total } = await runRecrawlExperiment(site, { rounds: 6 });
        expect(total.changed).toBeGreaterThan(20);
        expect(share(total.falseChanges.raw, total.unchanged)).toBeGreaterThan(0.9);
        expect(share(total.falseChanges.denoised, total.unchanged)).toBeLessThan(0.02);
        expect(share(total.hits.denoised, total.changed)).toBeGreaterThan(0.98);
      } finally {
        await site.close();
      }
    }, 60_000);
  }
});
