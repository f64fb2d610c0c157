import { readFileSync } from 'node:fs';
import { silentLogger } from '@crawler/core';
import {
  createFetcherParts,
  fetchRobots,
  loadFetcherConfig,
  policyOf,
  productTokenOf,
  robotsTokenOf,
  type RobotsPolicy,
  type RobotsRecord,
} from '@crawler/fetcher';
import { parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';
import { jsonLine, textLines } from '../terminal-text.js';

export const checkRobotsHelp = `Usage: crawler check robots [options] URL...

Says whether robots.txt lets the crawler fetch each URL, and which rule decided, as the fetcher
would read it (RFC 9309: product-token groups, longest match, * and $, 500 KiB limit).

  --robots FILE|URL     the robots.txt to judge by (default: each URL's own /robots.txt, fetched)
  --agent UA            User-Agent or product token (default: FETCHER_USER_AGENT's token)
  --allow-address IP    admit a private/loopback address or CIDR when fetching (repeatable)
  --json                one JSON object on stdout
  -h, --help            this help

Exit code 0 when every URL is allowed, 1 when one is not (or robots.txt is unavailable).`;

export const flagSpec = {
  robots: { type: 'string' },
  agent: { type: 'string' },
  'allow-address': { type: 'string', multiple: true },
  json: { type: 'boolean' },
} as const;

interface UrlVerdict {
  url: string;
  allowed: boolean;
  rule: { allow: boolean; pattern: string; line: number } | null;
}

interface RobotsSource {
  robotsUrl: string;
  record: Pick<RobotsRecord, 'kind'> & { httpStatus?: number | null; reason?: string; errorCode?: string };
  hops: { url: string; status: number; location: string | null }[];
  groupAgents: string[];
  crawlDelaySeconds: number | null;
  sitemaps: string[];
  urls: UrlVerdict[];
}

export async function checkRobotsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('check robots', argv, flagSpec, true);
  if (values.help) {
    process.stdout.write(`${checkRobotsHelp}\n`);
    return 0;
  }
  if (positionals.length === 0)
    throw new UsageError('crawler check robots: give at least one URL (see crawler check robots --help)');
  const urls = positionals.map((value) => {
    try {
      return new URL(value);
    } catch {
      throw new UsageError(`crawler check robots: "${value}" is not a URL`);
    }
  });
  const config = loadFetcherConfig({
    overrides: { ...(values['allow-address'] ? { allowAddresses: values['allow-address'] } : {}) },
  });
  const token = values.agent ? productTokenOf(values.agent) : robotsTokenOf(config);
  if (!token)
    throw new UsageError(
      `crawler check robots: --agent "${values.agent}" has no product token (it must start with letters)`,
    );
  const parts = createFetcherParts(config, null, silentLogger());
  const sources = new Map<string, { source: RobotsSource; policy: RobotsPolicy }>();
  try {
    const fromFile = values.robots !== undefined && !/^https?:\/\//i.test(values.robots);
    for (const url of urls) {
      const robotsUrl = values.robots ?? new URL('/robots.txt', url).href;
      let loaded = sources.get(robotsUrl);
      if (!loaded) {
        loaded = await loadSource(robotsUrl, fromFile, parts.client, config.totalTimeoutMs, token);
        sources.set(robotsUrl, loaded);
      }
      const decision = loaded.policy.decide(url);
      loaded.source.urls.push({ url: url.href, allowed: decision.allowed, rule: decision.rule });
    }
  } finally {
    parts.gate.close();
    await parts.client.close();
  }
  const all = [...sources.values()].map((loaded) => loaded.source);
  const fine = all.every(
    (source) => source.record.kind !== 'unavailable' && source.urls.every((verdict) => verdict.allowed),
  );
  process.stdout.write(
    values.json
      ? jsonLine({
          agent: token,
          robots: all.map(({ record, ...rest }) => ({
            ...rest,
            result: record.kind,
            httpStatus: record.httpStatus ?? null,
            reason: record.reason ?? record.errorCode ?? null,
          })),
        })
      : formatSources(token, all),
  );
  return fine ? 0 : 1;
}

async function loadSource(
  location: string,
  isFile: boolean,
  client: ReturnType<typeof createFetcherParts>['client'],
  timeoutMs: number,
  token: string,
): Promise<{ source: RobotsSource; policy: RobotsPolicy }> {
  let record: RobotsRecord;
  let hops: RobotsSource['hops'] = [];
  if (isFile) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(location);
    } catch (error) {
      throw new UsageError(`crawler check robots: cannot read --robots ${location}: ${(error as Error).message}`);
    }
    record = { kind: 'file', body: bytes.toString('utf8'), fetchedAt: Date.now(), finalUrl: location };
  } else {
    const fetched = await fetchRobots(client, new URL(location), Math.min(timeoutMs, 30_000));
    record = fetched.record;
    hops = fetched.hops;
  }
  const policy = policyOf(record, token);
  const { body: _body, ...summary } = record as RobotsRecord & { body?: string };
  return {
    policy,
    source: {
      robotsUrl: location,
      record: summary,
      hops,
      groupAgents: policy.groupAgents,
      crawlDelaySeconds: policy.crawlDelaySeconds,
      sitemaps: policy.sitemaps,
      urls: [],
    },
  };
}

function formatSources(token: string, sources: RobotsSource[]): string {
  const lines: string[] = [];
  for (const source of sources) {
    if (lines.length > 0) lines.push('');
    const how =
      source.record.kind === 'file'
        ? `read${source.hops.length > 1 ? ` after ${source.hops.length - 1} redirect(s)` : ''}; group: ${source.groupAgents.length > 0 ? source.groupAgents.join(', ') : 'none applies (all allowed)'}`
        : source.record.kind === 'allow-all'
          ? `everything allowed (${source.record.reason})`
          : `unavailable (${source.record.httpStatus ?? source.record.errorCode}): nothing is fetched until it answers`;
    lines.push(`robots.txt  ${source.robotsUrl}`, `agent       ${token}`, `result      ${how}`);
    if (source.crawlDelaySeconds !== null) lines.push(`crawl-delay ${source.crawlDelaySeconds} s`);
    for (const sitemap of source.sitemaps) lines.push(`sitemap     ${sitemap}`);
    for (const verdict of source.urls) {
      const why = verdict.rule
        ? `line ${verdict.rule.line}: ${verdict.rule.allow ? 'Allow' : 'Disallow'}: ${verdict.rule.pattern}`
        : 'no rule matched';
      lines.push(`${verdict.allowed ? 'allowed   ' : 'DISALLOWED'}  ${verdict.url}  (${why})`);
    }
  }
  return textLines(lines);
}
