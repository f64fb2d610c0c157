import {
  canonicalize,
  createScope,
  defaultCanonicalizeOptions,
  hostQueueKey,
  jobCanonicalizeOptions,
  loadCrawlJob,
  registrableDomain,
  surtKey,
  urlId,
} from '@crawler/core';
import { parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';
import { jsonLine, textLines } from '../terminal-text.js';

export const checkUrlHelp = `Usage: crawler check url [options] URL

Shows what the crawler makes of a URL: its canonical form (docs/URLS.md), SURT key (the page
store's row key), link base id, registrable domain and politeness key.

  --base URL            resolve a relative URL against this page URL
  --job FILE            apply the crawl job's URL options, and say whether its scope admits the URL
  --json                one JSON object on stdout
  -h, --help            this help

Exit code 0 for a crawlable URL, 1 when canonicalization refuses it (the reason is printed).`;

export const flagSpec = {
  base: { type: 'string' },
  job: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export interface UrlReport {
  input: string;
  canonical: string | null;
  refused: string | null;
  surt: string | null;
  urlId: string | null;
  host: string | null;
  registrableDomain: string | null;
  queueKey: string | null;
  /** With --job: null when in scope, else the drop reason. */
  scope?: string | null;
}

export async function checkUrlCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('check url', argv, flagSpec, true);
  if (values.help) {
    process.stdout.write(`${checkUrlHelp}\n`);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError('crawler check url: give exactly one URL (see crawler check url --help)');
  const report = urlReport(positionals[0]!, values.base, values.job);
  process.stdout.write(values.json ? jsonLine(report) : formatUrlReport(report));
  return report.canonical ? 0 : 1;
}

export function urlReport(input: string, base: string | undefined, jobFile: string | undefined): UrlReport {
  if (base !== undefined && (!URL.canParse(base) || !/^https?:/i.test(base)))
    throw new UsageError(`crawler check url: --base "${base}" is not an absolute http(s) URL`);
  const job = jobFile ? loadCrawlJob(jobFile) : null;
  const result = canonicalize(input, base, job ? jobCanonicalizeOptions(job) : defaultCanonicalizeOptions);
  if (!result.ok)
    return {
      input,
      canonical: null,
      refused: result.reason,
      surt: null,
      urlId: null,
      host: null,
      registrableDomain: null,
      queueKey: null,
    };
  const report: UrlReport = {
    input,
    canonical: result.url,
    refused: null,
    surt: surtKey(result.parsed),
    urlId: urlId(result.url),
    host: result.parsed.host,
    registrableDomain: registrableDomain(result.parsed),
    queueKey: hostQueueKey(result.parsed),
  };
  if (job) {
    const scope = createScope(job);
    report.scope = scope.check(result.parsed, base ? new URL(base) : result.parsed);
  }
  return report;
}

function formatUrlReport(report: UrlReport): string {
  if (!report.canonical) return textLines([`input      ${report.input}`, `refused    ${report.refused}`]);
  const lines = [
    `input      ${report.input}`,
    `canonical  ${report.canonical}`,
    `surt       ${report.surt}`,
    `url id     ${report.urlId}`,
    `host       ${report.host} (registrable domain ${report.registrableDomain}, queue key ${report.queueKey})`,
  ];
  if (report.scope !== undefined) lines.push(`scope      ${report.scope ?? 'in scope'}`);
  return textLines(lines);
}
