import { fingerprintText } from '@crawler/dedup';
import { Parser } from 'htmlparser2';
import { hash } from 'node:crypto';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { runPeer } from './runner-main.js';

const DEFAULT_USER_AGENT = 'crawler-bench-floor';
/** The WARC store's default level: the floor compresses what it keeps as the crawler does. */
const GZIP_LEVEL = 6;

interface Robots {
  isDisallowed(url: string, userAgent: string): boolean | undefined;
}
// robots-parser is CommonJS with a default-export declaration that NodeNext cannot call.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, text: string) => Robots;

/**
 * The floor of the work the crawler does, done by the bare tools in one loop with no framework:
 * GET, robots.txt check, one parse for links, title and text, seen-set, content digest, the
 * crawler's SimHash fingerprint and gzip of the body. No link base, messages or files: what a
 * crawler with our outputs cannot do without, so no crawler of this kind beats it on this machine.
 * It keeps the first page of each digest (the gzip), so an exact duplicate is not kept twice.
 */
await runPeer(async (config) => {
  const agent = new Agent({ connections: config.concurrency, keepAliveTimeout: 10_000 });
  const userAgent = config.userAgent ?? DEFAULT_USER_AGENT;
  return async () => {
    const ok: string[] = [];
    const kept: string[] = [];
    const seen = new Set<string>(config.seeds);
    const queue = [...config.seeds];
    const scope = new Set(config.seeds.map((seed) => new URL(seed).hostname));
    const robots = new Map<string, Promise<Robots>>();
    const digests = new Set<string>();
    let storedBytes = 0;
    let last = 0;
    const started = performance.now();

    const robotsFor = (url: URL): Promise<Robots> => {
      let rules = robots.get(url.origin);
      if (!rules) {
        const robotsUrl = `${url.origin}/robots.txt`;
        rules = request(robotsUrl, { dispatcher: agent, headers: { 'user-agent': userAgent } })
          .then(async (response) =>
            robotsParser(
              robotsUrl,
              response.statusCode === 200 ? await response.body.text() : (await response.body.dump(), ''),
            ),
          )
          .catch(() => robotsParser(robotsUrl, ''));
        robots.set(url.origin, rules);
      }
      return rules;
    };

    const crawlOne = async (url: string): Promise<void> => {
      const target = new URL(url);
      if ((await robotsFor(target)).isDisallowed(url, userAgent)) return;
      const response = await request(url, { dispatcher: agent, headers: { 'user-agent': userAgent } });
      const body = Buffer.from(await response.body.arrayBuffer());
      if (response.statusCode !== 200 || !String(response.headers['content-type']).includes('html')) return;
      ok.push(url);
      last = performance.now();
      const links: string[] = [];
      let title = '';
      let text = '';
      let inTitle = false;
      let skipped = 0;
      const parser = new Parser(
        {
          onopentag(name, attributes) {
            if (name === 'a' && attributes.href) links.push(attributes.href);
            else if (name === 'title') inTitle = true;
            else if (name === 'script' || name === 'style') skipped++;
          },
          ontext(chunk) {
            if (inTitle) title += chunk;
            else if (skipped === 0) text += chunk;
          },
          onclosetag(name) {
            if (name === 'title') inTitle = false;
            else if (name === 'script' || name === 'style') skipped--;
          },
        },
        { decodeEntities: true },
      );
      parser.end(body.toString('utf8'));
      for (const href of links) {
        const link = URL.parse(href, url);
        if (!link || !scope.has(link.hostname)) continue;
        link.hash = '';
        if (!seen.has(link.href)) {
          seen.add(link.href);
          queue.push(link.href);
        }
      }
      const digest = hash('sha256', body);
      if (digests.has(digest)) return;
      digests.add(digest);
      kept.push(url);
      fingerprintText(title, text.replace(/\s+/g, ' ').trim(), 'en');
      storedBytes += gzipSync(body, { level: GZIP_LEVEL }).length;
    };

    await new Promise<void>((resolve) => {
      let active = 0;
      const pump = () => {
        while (active < config.concurrency && queue.length > 0 && ok.length + active < config.maxPages) {
          active++;
          crawlOne(queue.shift()!)
            .catch(() => undefined)
            .finally(() => {
              active--;
              if (active === 0 && (queue.length === 0 || ok.length >= config.maxPages)) resolve();
              else pump();
            });
        }
      };
      pump();
    });
    const seconds = (performance.now() - started) / 1000;
    await agent.close();
    return {
      pages: ok.length,
      okUrls: ok,
      storedUrls: kept,
      seconds,
      lastPageSeconds: (last - started) / 1000,
      notes: { storedBytes },
    };
  };
});
