import { request } from 'node:http';
import { canonicalizeUrl } from '../canonical-url.js';
import { createRobotsPolicy, type RobotsPolicy } from '../robots-policy.js';
import { parseRobotsTxt } from '../robots-txt.js';

// A deliberately naive crawler, independent of the model: real HTTP, regex link extraction.
// If the ground truth and the served web ever drift apart, its findings differ from the truth.

interface Fetched {
  status: number;
  location?: string;
  contentType: string;
  body?: string;
  /** The body did not end within the read timeout. */
  endless?: boolean;
}

const HEADER_TIMEOUT_MS = 3000;
const BODY_TIMEOUT_MS = 800;

function fetchOnce(url: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { 'user-agent': 'naive-crawler/0.1' } }, (res) => {
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), endless: true });
      }, BODY_TIMEOUT_MS);
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          location: res.headers.location,
          body: Buffer.concat(chunks).toString('latin1'),
        });
      });
    });
    req.setTimeout(HEADER_TIMEOUT_MS, () => req.destroy(new Error(`timeout ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

async function fetchWithRetries(url: string): Promise<Fetched> {
  let result = await fetchOnce(url);
  for (let i = 0; i < 3 && (result.status === 429 || result.status === 503); i++) result = await fetchOnce(url);
  return result;
}

const decodeEntities = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
const ATTRIBUTE = String.raw`\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))`;
const LINK = new RegExp(String.raw`<(a|area)\b[^>]*?\shref${ATTRIBUTE}|<(i?frame)\b[^>]*?\ssrc${ATTRIBUTE}`, 'gi');
const BASE = new RegExp(String.raw`<base\b[^>]*?\shref${ATTRIBUTE}`, 'i');
const REFRESH = /<meta\s+http-equiv="refresh"\s+content="\d+;\s*url=([^"]+)"/i;

function extractLinks(html: string, pageUrl: string): { links: string[]; refresh?: string } {
  const text = html.replace(/<!--[\s\S]*?-->/g, '');
  const baseMatch = BASE.exec(text);
  const base = baseMatch
    ? (canonicalizeUrl(decodeEntities(baseMatch[1] ?? baseMatch[2] ?? baseMatch[3] ?? ''), pageUrl) ?? pageUrl)
    : pageUrl;
  const links: string[] = [];
  for (const m of text.matchAll(LINK)) {
    const raw = m[2] ?? m[3] ?? m[4] ?? m[6] ?? m[7] ?? m[8] ?? '';
    const url = canonicalizeUrl(decodeEntities(raw), base);
    if (url) links.push(url);
  }
  const refresh = REFRESH.exec(text)?.[1];
  return { links, refresh: refresh ? canonicalizeUrl(decodeEntities(refresh), pageUrl) : undefined };
}

export interface CrawlResult {
  pages: Set<string>;
  disallowed: Set<string>;
  redirects: { from: string; to: string; status: number | 'meta-refresh' }[];
  errors: { url: string; status: number }[];
  endless: Set<string>;
  nonHtml: { url: string; contentType: string }[];
}

export async function crawl(seeds: string[], maxDepth: number, trapPrefixes: string[]): Promise<CrawlResult> {
  const result: CrawlResult = {
    pages: new Set(),
    disallowed: new Set(),
    redirects: [],
    errors: [],
    endless: new Set(),
    nonHtml: [],
  };
  const robots = new Map<string, Promise<RobotsPolicy>>();
  const policyFor = (origin: string) => {
    let policy = robots.get(origin);
    if (!policy) {
      policy = fetchOnce(`${origin}/robots.txt`).then((r) =>
        createRobotsPolicy(
          r.status === 200 && r.body !== undefined ? parseRobotsTxt(r.body) : undefined,
          'naive-crawler',
        ),
      );
      robots.set(origin, policy);
    }
    return policy;
  };
  const depthOf = new Map<string, number>();
  let level = [...seeds];
  seeds.forEach((s) => depthOf.set(s, 0));
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    const discover = (url: string, at: number) => {
      if (at > maxDepth || (depthOf.get(url) ?? Infinity) <= at) return;
      depthOf.set(url, at);
      (at === depth ? level : next).push(url);
    };
    const visit = async (url: string) => {
      if (depthOf.get(url) !== depth) return;
      const parsed = new URL(url);
      if (!(await policyFor(parsed.origin)).isAllowed(`${parsed.pathname}${parsed.search}`)) {
        result.disallowed.add(url);
        return;
      }
      const isTrap = trapPrefixes.some((p) => url.startsWith(p));
      const response = await fetchWithRetries(url);
      if (response.status >= 300 && response.status < 400 && response.location) {
        const to = canonicalizeUrl(response.location, url) as string;
        result.redirects.push({ from: url, to, status: response.status });
        discover(to, depth);
      } else if (response.status !== 200) {
        result.errors.push({ url, status: response.status });
      } else if (response.endless) {
        result.endless.add(url);
      } else if (!response.contentType.startsWith('text/html')) {
        result.nonHtml.push({ url, contentType: response.contentType });
      } else if (!isTrap) {
        result.pages.add(url);
        const { links, refresh } = extractLinks(response.body ?? '', url);
        links.forEach((l) => discover(l, depth + 1));
        if (refresh) {
          result.redirects.push({ from: url, to: refresh, status: 'meta-refresh' });
          discover(refresh, depth + 1);
        }
      }
    };
    // Redirect targets join the current level while it is being processed.
    for (let done = 0; done < level.length;) {
      const batch = level.slice(done);
      done = level.length;
      await Promise.all(batch.map(visit));
    }
    level = next;
  }
  return result;
}
