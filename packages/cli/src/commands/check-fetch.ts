import { decodeText, errorMessage, silentLogger } from '@crawler/core';
import { createFetcherParts, effectivePort, fetchUrl, loadFetcherConfig, type FetchUrlOutcome } from '@crawler/fetcher';
import { intFlag, parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';
import { jsonLine, textLines } from '../terminal-text.js';

export const checkFetchHelp = `Usage: crawler check fetch [options] URL

Fetches one URL exactly as the fetcher does (robots.txt, address policy, redirects, decoding,
content-type and charset rules) and shows what came back: outcome, hops, status, headers,
charset and how it was chosen, bytes and timings. Nothing is stored.

  --user-agent TEXT     User-Agent to send (keep a contact URL in it)
  --allow-address IP    admit a private/loopback address or CIDR (repeatable)
  --ignore-robots       do not read robots.txt (only for sites you own)
  --max-redirects N     follow up to N same-host redirects inline (default 0: show the first)
  --etag VALUE          send If-None-Match, as for a page fetched before
  --last-modified DATE  send If-Modified-Since
  --content-type TYPE   also accept this media type, e.g. application/pdf or image/* (repeatable)
  --json                one JSON object on stdout
  -h, --help            this help

Settings not given here come from the environment (FETCHER_*, see docs/CONFIGURATION.md).
Exit code 0 for a page, a 304 or a redirect; 1 for any other outcome.`;

export const flagSpec = {
  'user-agent': { type: 'string' },
  'allow-address': { type: 'string', multiple: true },
  'ignore-robots': { type: 'boolean' },
  'max-redirects': { type: 'string' },
  etag: { type: 'string' },
  'last-modified': { type: 'string' },
  'content-type': { type: 'string', multiple: true },
  json: { type: 'boolean' },
} as const;

export async function checkFetchCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('check fetch', argv, flagSpec, true);
  if (values.help) {
    process.stdout.write(`${checkFetchHelp}\n`);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError('crawler check fetch: give exactly one URL (see crawler check fetch --help)');
  const target = positionals[0]!;
  if (!/^https?:\/\//i.test(target)) throw new UsageError(`crawler check fetch: "${target}" is not an http(s) URL`);
  const overrides: Record<string, unknown> = { minDelayMs: 0 };
  if (values['user-agent']) overrides.userAgent = values['user-agent'];
  if (values['allow-address']) overrides.allowAddresses = values['allow-address'];
  if (values['ignore-robots']) overrides.obeyRobots = false;
  const maxRedirects = intFlag('check fetch', 'max-redirects', values['max-redirects'], 0);
  if (maxRedirects !== undefined) overrides.maxRedirects = maxRedirects;
  if (values['content-type'])
    overrides.contentTypes = [...loadFetcherConfig({ overrides }).contentTypes, ...values['content-type']];
  const parts = createFetcherParts(loadFetcherConfig({ overrides }), null, silentLogger());
  try {
    const url = new URL(target);
    await parts.policy.ready();
    const dnsStarted = performance.now();
    // Resolving first shows the address and the DNS time; the connection then reuses the cached answer.
    const address = await parts.policy.resolve(url.hostname, effectivePort(url.protocol, url.port)).then(
      (entry) => entry.address,
      (error: unknown) => `not used: ${errorMessage(error)}`,
    );
    const dnsMs = Math.round(performance.now() - dnsStarted);
    const result = await fetchUrl(parts.deps, {
      url: url.href,
      jobId: 'check',
      etag: values.etag ?? null,
      lastModified: values['last-modified'] ?? null,
    });
    const report = reportOf(url.href, address, dnsMs, result);
    process.stdout.write(values.json ? jsonLine(report) : formatReport(report));
    return report.outcome === 'ok' || report.outcome === 'not_modified' || report.outcome === 'redirect' ? 0 : 1;
  } finally {
    parts.gate.close();
    await parts.client.close();
  }
}

export interface FetchReport {
  url: string;
  outcome: string;
  httpStatus: number | null;
  finalUrl: string | null;
  redirectTo: string | null;
  hops: { url: string; status: number; location: string | null }[];
  address: string;
  headers: Record<string, string>;
  contentType: string | null;
  contentTypeSniffed: boolean;
  charset: string | null;
  charsetSource: string | null;
  title: string | null;
  bytes: { wire: number; body: number; truncated: boolean };
  timings: { dnsMs: number; headersMs: number | null; bodyMs: number | null; totalMs: number };
  retryAfterMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
}

function reportOf(url: string, address: string, dnsMs: number, result: FetchUrlOutcome): FetchReport {
  const common = {
    url,
    address,
    hops: result.hops,
    timings: { dnsMs, headersMs: null, bodyMs: null, totalMs: result.durationMs },
  };
  if (result.kind === 'status') {
    return {
      ...common,
      outcome: result.outcome,
      httpStatus: result.httpStatus,
      finalUrl: null,
      redirectTo: result.redirectTo ?? null,
      headers: result.headers ?? {},
      contentType: null,
      contentTypeSniffed: false,
      charset: null,
      charsetSource: null,
      title: null,
      bytes: { wire: 0, body: 0, truncated: false },
      retryAfterMs: result.retryAfterMs ?? null,
      errorCode: result.errorCode ?? null,
      errorMessage: result.errorMessage ?? null,
    };
  }
  const text = result.charset ? decodeText(result.body.subarray(0, 64 * 1024), result.charset).text : '';
  return {
    ...common,
    outcome: 'ok',
    httpStatus: result.httpStatus,
    finalUrl: result.finalUrl,
    redirectTo: null,
    headers: result.headers,
    contentType: result.contentType,
    contentTypeSniffed: result.sniffed,
    charset: result.charset,
    charsetSource: result.charsetSource,
    title:
      text
        .match(/<title[^>]*>([^<]*)<\/title>/i)?.[1]
        ?.trim()
        .replace(/\s+/g, ' ') ?? null,
    bytes: { wire: result.wireBytes, body: result.body.length, truncated: result.truncated },
    timings: { ...common.timings, headersMs: result.timings.headersMs, bodyMs: result.timings.bodyMs },
    retryAfterMs: null,
    errorCode: null,
    errorMessage: null,
  };
}

function formatReport(report: FetchReport): string {
  const lines = [
    `url         ${report.url}`,
    `address     ${report.address}`,
    `outcome     ${report.outcome}${report.httpStatus !== null ? ` (HTTP ${report.httpStatus})` : ''}${report.errorCode ? ` [${report.errorCode}]` : ''}`,
  ];
  if (report.errorMessage) lines.push(`why         ${report.errorMessage}`);
  for (const hop of report.hops)
    lines.push(`hop         ${hop.status} ${hop.url}${hop.location ? ` -> ${hop.location}` : ''}`);
  if (report.redirectTo) lines.push(`redirect to ${report.redirectTo} (the scheduler fetches it as its own URL)`);
  if (report.retryAfterMs !== null) lines.push(`retry after ${Math.round(report.retryAfterMs / 1000)} s`);
  if (report.contentType)
    lines.push(`type        ${report.contentType}${report.contentTypeSniffed ? ' (sniffed from the bytes)' : ''}`);
  if (report.charset) lines.push(`charset     ${report.charset} (from ${report.charsetSource})`);
  if (report.title) lines.push(`title       ${report.title}`);
  if (report.outcome === 'ok')
    lines.push(
      `bytes       ${report.bytes.wire} on the wire, ${report.bytes.body} decoded${report.bytes.truncated ? ', TRUNCATED at the size cap' : ''}`,
    );
  const { dnsMs, headersMs, bodyMs, totalMs } = report.timings;
  lines.push(
    `timings     dns ${dnsMs} ms${headersMs !== null ? ` · headers ${headersMs} ms · body ${bodyMs} ms` : ''} · total ${totalMs} ms`,
  );
  for (const [name, value] of Object.entries(report.headers))
    lines.push(`header      ${name}: ${value.replace(/\n/g, ' | ')}`);
  return textLines(lines);
}
