import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { runPeer } from './runner-main.js';

/**
 * The physical limit: plain undici GETs of every page of the truth at the same concurrency,
 * bodies read to the end and dropped. No robots.txt, no parsing, no bookkeeping.
 */
await runPeer(async (config) => {
  const urls = readFileSync(config.pagesFile, 'utf8').split('\n').filter(Boolean).slice(0, config.maxPages);
  const agent = new Agent({ connections: config.concurrency, keepAliveTimeout: 10_000 });
  return async () => {
    const ok: string[] = [];
    let next = 0;
    let last = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: config.concurrency }, async () => {
        while (next < urls.length) {
          const url = urls[next++]!;
          try {
            const response = await request(url, { dispatcher: agent });
            for await (const _chunk of response.body) {
              // Read to the end, as a crawler must.
            }
            if (response.statusCode === 200) {
              ok.push(url);
              last = performance.now();
            }
          } catch {
            // A failed GET is simply not counted as fetched.
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await agent.close();
    return { pages: ok.length, okUrls: ok, seconds, lastPageSeconds: (last - started) / 1000 };
  };
});
