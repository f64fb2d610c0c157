import { normalizePercentEncoding } from '@crawler/core';
import { matchesRobotsPattern } from './robots-pattern.js';

/** RFC 9309 2.5: crawlers must parse at least 500 KiB; what follows is ignored. */
export const ROBOTS_PARSE_LIMIT = 500 * 1024;

export interface RobotsRule {
  allow: boolean;
  /** The path pattern, percent-encoding normalized. */
  pattern: string;
  /** 1-based line in the file, for people asking "why". */
  line: number;
}

export interface RobotsDecision {
  allowed: boolean;
  /** The rule that decided; null when no rule matched (allowed by default). */
  rule: RobotsRule | null;
}

export interface RobotsPolicy {
  decide(url: URL): RobotsDecision;
  isAllowed(url: URL): boolean;
  /** Crawl-delay of the matching groups, in seconds. */
  crawlDelaySeconds: number | null;
  /** Absolute http(s) URLs from Sitemap lines (they belong to no group). */
  sitemaps: string[];
  /** The user-agent lines of the groups that apply: our product token, or `*`, or none. */
  groupAgents: string[];
  /** Why this policy: parsed, or a whole-site rule from the fetch outcome. */
  source: 'parsed' | 'allow-all' | 'disallow-all';
  /** Set when robots.txt could not be had (5xx, 429, network): the site is off limits meanwhile. */
  failure?: { httpStatus: number | null; error: unknown };
}

interface Group {
  agents: string[];
  rules: RobotsRule[];
  crawlDelaySeconds: number | null;
}

/**
 * Parses robots.txt per RFC 9309 for one product token. A group applies when a user-agent line's
 * product token (its leading letters, `-` and `_`, so "Crawler/2.1" names "crawler") equals ours,
 * case-insensitively; all such groups are merged, and only when there is none do the `*` groups
 * apply. The longest matching pattern decides, allow wins a tie. Input past 500 KiB is ignored,
 * up to the last complete line, so a cut rule never becomes a broader one.
 */
export function parseRobotsTxt(input: string | Buffer, productToken: string): RobotsPolicy {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  const lines = limitedText(input).split(/\r\n|\r|\n/);
  lines.forEach((rawLine, index) => {
    const record = parseRecord(rawLine);
    if (!record) return;
    const { key, value } = record;
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelaySeconds: null };
        groups.push(current);
      }
      current.agents.push(value);
      lastWasAgent = true;
      return;
    }
    if (key === 'sitemap') {
      if (isAbsoluteHttpUrl(value)) sitemaps.push(value);
      return;
    }
    lastWasAgent = false;
    if (!current) return;
    if ((key === 'allow' || key === 'disallow') && value) {
      const rule = { allow: key === 'allow', pattern: normalizePattern(value), line: index + 1 };
      current.rules.push(rule);
      const directory = rule.allow ? indexPageDirectory(rule.pattern) : null;
      if (directory) current.rules.push({ ...rule, pattern: directory });
    } else if (key === 'crawl-delay') {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelaySeconds = seconds;
    }
  });
  const matching = selectGroups(groups, productToken);
  const rules = matching.flatMap((group) => group.rules);
  const delays = matching.map((group) => group.crawlDelaySeconds).filter((delay): delay is number => delay !== null);
  const decide = (url: URL) => decideFor(rules, url);
  return {
    decide,
    isAllowed: (url) => decide(url).allowed,
    crawlDelaySeconds: delays.length > 0 ? Math.max(...delays) : null,
    sitemaps,
    groupAgents: matching.flatMap((group) => group.agents),
    source: 'parsed',
  };
}

export const allowAll: RobotsPolicy = wholeSite(true);
export const disallowAll: RobotsPolicy = wholeSite(false);

function wholeSite(allowed: boolean): RobotsPolicy {
  const decide = (url: URL): RobotsDecision => ({ allowed: allowed || url.pathname === '/robots.txt', rule: null });
  return {
    decide,
    isAllowed: (url) => decide(url).allowed,
    crawlDelaySeconds: null,
    sitemaps: [],
    groupAgents: [],
    source: allowed ? 'allow-all' : 'disallow-all',
  };
}

/** The product token of a user-agent line or User-Agent header: "Crawler/2.1 (+url)" -> "crawler". */
export function productTokenOf(userAgent: string): string {
  return (userAgent.trim().match(/^[A-Za-z_-]+/)?.[0] ?? '').toLowerCase();
}

function selectGroups(groups: Group[], productToken: string): Group[] {
  const token = productTokenOf(productToken);
  const named = groups.filter((group) =>
    group.agents.some((agent) => agent !== '*' && token !== '' && productTokenOf(agent) === token),
  );
  return named.length > 0 ? named : groups.filter((group) => group.agents.includes('*'));
}

function decideFor(rules: RobotsRule[], url: URL): RobotsDecision {
  const path = normalizePercentEncoding(`${url.pathname}${url.search}`);
  if (path === '/robots.txt') return { allowed: true, rule: null };
  let winner: RobotsRule | null = null;
  for (const rule of rules) {
    if (winner && rule.pattern.length < winner.pattern.length) continue;
    if (!matchesRobotsPattern(path, rule.pattern)) continue;
    if (!winner || rule.pattern.length > winner.pattern.length || (rule.allow && !winner.allow)) winner = rule;
  }
  return { allowed: winner ? winner.allow : true, rule: winner };
}

/** Non-ASCII characters are percent-encoded as UTF-8, escapes normalized like paths are. */
function normalizePattern(pattern: string): string {
  const encoded = pattern.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
  return normalizePercentEncoding(encoded.startsWith('/') || encoded.startsWith('*') ? encoded : `/${encoded}`);
}

/** Blanks are RFC 9309's WS, space and tab only: a byte order mark inside the file is no blank. */
const WS = /^[ \t]+|[ \t]+$/g;
/** Keys a line may give without its colon ("disallow /"): two words and nothing else. */
const COLONLESS = /^(user-agent|allow|disallow|sitemap|crawl-delay)[ \t]+([^ \t]+)$/i;

/**
 * A line's key (lowercased) and value, comment and blanks stripped, or null. As Google's parser
 * does, a known key followed by one word without the colon ("Disallow /") counts: its meaning is
 * plain, and the RFC asks crawlers to obey what they can parse, not to drop it.
 */
function parseRecord(rawLine: string): { key: string; value: string } | null {
  const line = rawLine.replace(/#.*$/, '').replace(WS, '');
  const colon = line.indexOf(':');
  if (colon > 0)
    return { key: line.slice(0, colon).replace(WS, '').toLowerCase(), value: line.slice(colon + 1).replace(WS, '') };
  const colonless = COLONLESS.exec(line);
  return colonless ? { key: colonless[1]!.toLowerCase(), value: colonless[2]! } : null;
}

/**
 * Google's index-page rule: an Allow whose last segment is index.htm or index.html also allows
 * its directory itself (`/dir/`, anchored), the same page by its other name. Disallow rules and
 * other names are left as written.
 */
function indexPageDirectory(pattern: string): string | null {
  const slash = pattern.lastIndexOf('/');
  return pattern.startsWith('/index.htm', slash) ? `${pattern.slice(0, slash + 1)}$` : null;
}

/** A UTF-8 byte order mark, also cut short (EF or EF BB), is not part of the first line. */
function withoutByteOrderMark(bytes: Buffer): Buffer {
  if (bytes[0] !== 0xef) return bytes;
  if (bytes[1] !== 0xbb) return bytes.subarray(1);
  return bytes.subarray(bytes[2] === 0xbf ? 3 : 2);
}

function limitedText(input: string | Buffer): string {
  const bytes = withoutByteOrderMark(typeof input === 'string' ? Buffer.from(input, 'utf8') : input);
  if (bytes.length <= ROBOTS_PARSE_LIMIT) return bytes.toString('utf8');
  const cut = bytes.subarray(0, ROBOTS_PARSE_LIMIT);
  const lastBreak = Math.max(cut.lastIndexOf(0x0a), cut.lastIndexOf(0x0d));
  return cut.subarray(0, lastBreak + 1).toString('utf8');
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
