import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalUrl, parseCrawlJob, silentLogger } from '@crawler/core';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWebOverrides } from './commands/demo.js';
import { startOneProcessCrawl } from './one-process-crawl.js';

describe('frame splicing in an embedded crawl of the legacy host', () => {
  let web: TestWeb;
  let outDir: string;
  beforeAll(async () => {
    web = await startTestWeb({ seed: 3 });
    outDir = mkdtempSync(join(tmpdir(), 'frames-crawl-'));
  });
  afterAll(async () => {
    await web.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it("stitches a frameset's frames and a page's iframe into their text, fetching frames through the fetcher", async () => {
    const origin = web.hosts.find((host) => host.name === 'legacy')!.origin;
    const url = (path: string) => canonicalUrl(`${origin}${path}`)!;
    const job = parseCrawlJob({ id: 'frames', seeds: [url('/')], maxDepth: 1, extraction: { spliceFrames: true } });
    const crawl = await startOneProcessCrawl({ outDir, job, logger: silentLogger(), overrides: testWebOverrides });
    try {
      expect(await crawl.waitUntilDone({ maxTimeMs: 30_000 })).toBe('complete');
      const [frameset] = await crawl.pages.get(url('/'));
      // The frameset itself has no text; its two frames' texts are spliced in.
      expect(frameset!.text).toContain('Pick a page.');
      expect(frameset!.text).toContain('Welcome to the home page of the Regional Rail Society');
      const [welcome] = await crawl.pages.get(url('/welcome.html'));
      expect(welcome!.text).toContain('You are visitor number 004711.');
      // widget.html is two hops from the seed (past maxDepth): only the frame fetch asked for it.
      expect(web.requests.count(url('/widget.html'), 'GET')).toBe(1);
      // One robots.txt request for the host: frames share the fetcher's robots cache.
      expect(web.requests.count(url('/robots.txt'), 'GET')).toBe(1);
    } finally {
      await crawl.stop();
    }
  });
});
