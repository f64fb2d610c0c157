import { normalizePercentEncoding } from '@crawler/core';

/** RFC 9309: crawlers must parse at least 500 KiB; what follows is ignored. */
export const ROBOTS_PARSE_LIMIT = 500 * 1024;

interface Rule {
  allow: boolean;
  pattern: string;
  regex: RegExp;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelaySeconds: number | null;
}

export interface RobotsPolicy {
  isAllowed(url: URL): boolean;
  /** Crawl-delay of the matching group, in seconds. */
  crawlDelaySeconds: number | null;
  sitemaps: string[];
  /** Why this policy: parsed, or a whole-site rule from the fetch outcome. */
  source: 'parsed' | 'allow-all' | 'disallow-all';
  /** Set when robots.txt could not be had (5xx, 429, network): the site is off limits meanwhile. */
  failure?: { httpStatus: number | null; error: unknown };
}

/**
 * Parses robots.txt per RFC 9309 for one product token: groups are matched case-insensitively,
 * the most specific matching user-agent wins (groups naming it are merged), `*` is the fallback;
 * the longest matching rule decides, allow wins a tie; `*` and `$` are supported and
 * percent-encoding is normalized on both sides before matching.
 */
export function parseRobotsTxt(text: string, productToken: string): RobotsPolicy {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  const body = text.length > ROBOTS_PARSE_LIMIT ? text.slice(0, ROBOTS_PARSE_LIMIT) : text;
  for (const rawLine of body.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelaySeconds: null };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (key === 'sitemap') {
      if (value) sitemaps.push(value);
      continue;
    }
    if (!current) continue;
    if ((key === 'allow' || key === 'disallow') && value) {
      const pattern = normalizePattern(value);
      current.rules.push({ allow: key === 'allow', pattern, regex: compilePattern(pattern) });
    } else if (key === 'crawl-delay') {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelaySeconds = seconds;
    }
  }
  const matching = selectGroups(groups, productToken.toLowerCase());
  const rules = matching.flatMap((group) => group.rules);
  const delays = matching.map((group) => group.crawlDelaySeconds).filter((delay): delay is number => delay !== null);
  return {
    isAllowed: (url) => isAllowed(rules, url),
    crawlDelaySeconds: delays.length > 0 ? Math.max(...delays) : null,
    sitemaps,
    source: 'parsed',
  };
}

export const allowAll: RobotsPolicy = { isAllowed: () => true, crawlDelaySeconds: null, sitemaps: [], source: 'allow-all' };
export const disallowAll: RobotsPolicy = { isAllowed: (url) => url.pathname === '/robots.txt', crawlDelaySeconds: null, sitemaps: [], source: 'disallow-all' };

/** The groups naming the longest user-agent that our token starts with; else the `*` groups. */
function selectGroups(groups: Group[], token: string): Group[] {
  let best = '';
  for (const group of groups) {
    for (const agent of group.agents) {
      if (agent !== '*' && token.startsWith(agent) && agent.length > best.length) best = agent;
    }
  }
  const wanted = best || '*';
  return groups.filter((group) => group.agents.includes(wanted));
}

function isAllowed(rules: Rule[], url: URL): boolean {
  const path = normalizePercentEncoding(`${url.pathname}${url.search}`);
  if (path === '/robots.txt') return true;
  let winner: Rule | null = null;
  for (const rule of rules) {
    if (!rule.regex.test(path)) continue;
    if (!winner || rule.pattern.length > winner.pattern.length || (rule.pattern.length === winner.pattern.length && rule.allow)) winner = rule;
  }
  return winner ? winner.allow : true;
}

/** Non-ASCII characters are percent-encoded as UTF-8, escapes normalized like paths are. */
function normalizePattern(pattern: string): string {
  const encoded = pattern.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
  return normalizePercentEncoding(encoded.startsWith('/') || encoded.startsWith('*') ? encoded : `/${encoded}`);
}

function compilePattern(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const core = anchored ? pattern.slice(0, -1) : pattern;
  const source = core
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`);
}
