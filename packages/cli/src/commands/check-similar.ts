import { basename } from 'node:path';
import { parseCrawlJob } from '@crawler/core';
import {
  analyzePage,
  comparePages,
  loadDedupConfig,
  nearLimitsOf,
  simhashHex,
  type NearLimits,
  type PageAnalysis,
  type PageComparison,
} from '@crawler/dedup';
import { createPageParser, extractLimitsOf, loadLinkextractConfig } from '@crawler/linkextract';
import { intFlag, parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';
import { createCheckFetcher, fetchPage, readPage } from './parse-input.js';
import { jsonLine, textLines } from '../terminal-text.js';

export const checkSimilarHelp = `Usage: crawler check similar [options] A B

Decides what dedup decides about page B when page A was crawled first, with the rule the crawl
applies: for each page, the digest of title and main text, the 64-bit SimHash of the main text, of
its word pairs and of its headline, how long the main text and the whole page's text are; then the
Hamming distances, the estimated share of runs of four content words the texts have in common, and
the decision (exact duplicate, near duplicate, different, or too short to compare) with the check
that made it. Main text is extracted as link extraction does; no site template is applied (the
services strip the one they learned for the site). URLs are fetched as the fetcher does
(robots.txt, address policy, charset).

  --k N                 most differing bits of main-text SimHashes (default DEDUP_NEAR_DISTANCE, 3)
                        (the same headline: main texts within DEDUP_NEAR_SAME_HEADLINE_DISTANCE, 6)
  --resemblance X       least share of runs of four content words in common (default DEDUP_NEAR_RESEMBLANCE, 0.5)
  --url-a URL, --url-b URL
                        where saved page A or B was served from: pages of one host meet the rules of one
                        site (default: each file a site of its own)
  --user-agent TEXT     User-Agent to send (keep a contact URL in it)
  --allow-address IP    admit a private/loopback address or CIDR (repeatable)
  --ignore-robots       do not read robots.txt (only for sites you own)
  --json                one JSON object on stdout
  -h, --help            this help

Exit code 0 when both pages were read, 1 when one could not be fetched.`;

export const flagSpec = {
  k: { type: 'string' },
  resemblance: { type: 'string' },
  'url-a': { type: 'string' },
  'url-b': { type: 'string' },
  'user-agent': { type: 'string' },
  'allow-address': { type: 'string', multiple: true },
  'ignore-robots': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

export interface SimilarPage {
  url: string;
  title: string | null;
  digest: string;
  rawDigest: string;
  simhash: string | null;
  pairsSimhash: string | null;
  titleSimhash: string | null;
  textChars: number;
  /** Characters of visible text on the whole page. */
  pageChars: number;
  contentWords: number;
}

export interface SimilarReport extends PageComparison {
  a: SimilarPage;
  b: SimilarPage;
  limits: NearLimits;
}

export async function checkSimilarCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('check similar', argv, flagSpec, true);
  if (values.help) {
    process.stdout.write(`${checkSimilarHelp}\n`);
    return 0;
  }
  if (positionals.length !== 2)
    throw new UsageError('crawler check similar: give exactly two URLs or files (see crawler check similar --help)');
  for (const side of ['url-a', 'url-b'] as const) {
    const url = values[side];
    if (url !== undefined && (!URL.canParse(url) || !/^https?:/i.test(url)))
      throw new UsageError(`crawler check similar: --${side} "${url}" is not an http(s) URL`);
  }
  if (values.resemblance !== undefined && !/^(?:0?\.\d+|1(?:\.0*)?|0)$/.test(values.resemblance))
    throw new UsageError(
      'crawler check similar: --resemblance is a share of runs of words in common: above 0, at most 1',
    );
  const dedup = loadDedupConfig();
  const resemblance = values.resemblance === undefined ? dedup.nearResemblance : Number(values.resemblance);
  const limits: NearLimits = {
    ...nearLimitsOf({ ...dedup, nearResemblance: resemblance }),
    body: intFlag('check similar', 'k', values.k) ?? dedup.nearDistance,
  };
  if (limits.body > 64) throw new UsageError('crawler check similar: --k counts bits of a 64-bit hash: 0..64');
  if (!(resemblance > 0 && resemblance <= 1))
    throw new UsageError(
      'crawler check similar: --resemblance is a share of runs of words in common: above 0, at most 1',
    );
  const config = loadLinkextractConfig();
  const parse = createPageParser({
    job: parseCrawlJob({ scope: { mode: 'any' } }),
    limits: extractLimitsOf(config),
    followNofollow: config.followNofollow,
    maxInputBytes: config.maxInputBytes,
    robotsAgent: config.robotsAgent,
  });
  const fetcher = positionals.some(isUrl)
    ? createCheckFetcher({
        userAgent: values['user-agent'],
        allowAddresses: values['allow-address'],
        ignoreRobots: values['ignore-robots'],
      })
    : null;
  try {
    const read: { page: SimilarPage; host: string; analysis: PageAnalysis }[] = [];
    for (const [i, target] of positionals.entries()) {
      let input;
      if (isUrl(target)) {
        const fetched = await fetchPage(fetcher!.parts, target);
        if (!fetched.ok) {
          process.stderr.write(
            textLines([
              `crawler check similar: ${target} was not fetched: ${fetched.outcome}${fetched.httpStatus ? ` (HTTP ${fetched.httpStatus})` : ''}${fetched.message ? `: ${fetched.message}` : ''}`,
            ]),
          );
          return 1;
        }
        input = fetched.page;
      } else {
        const side = i === 0 ? 'a' : 'b';
        input = readPage(
          target,
          values[`url-${side}`] ?? `http://${side}.invalid/${encodeURIComponent(basename(target))}`,
          undefined,
          undefined,
        );
      }
      const content = await parse(input);
      const analysis = analyzePage(
        {
          title: content.title,
          text: content.text,
          lang: content.lang,
          contentType: input.mediaType,
          charset: content.charset,
          body: input.body,
          bodyEncoding: 'identity',
        },
        null,
        dedup.digestAlgorithm,
      );
      read.push({
        page: describe(isUrl(target) ? input.url : target, content.title, analysis),
        host: new URL(input.finalUrl).host,
        analysis,
      });
    }
    const [a, b] = read as [(typeof read)[0], (typeof read)[0]];
    const report: SimilarReport = { ...comparePages(a, b, limits), a: a.page, b: b.page, limits };
    process.stdout.write(values.json ? jsonLine(report) : formatSimilarReport(report));
    return 0;
  } finally {
    await fetcher?.close();
  }
}

function isUrl(target: string): boolean {
  return /^https?:\/\//i.test(target);
}

function describe(url: string, title: string | null, analysis: PageAnalysis): SimilarPage {
  const fingerprint = analysis.fingerprint;
  return {
    url,
    title,
    digest: analysis.digest,
    rawDigest: analysis.rawDigest,
    simhash: fingerprint ? simhashHex(fingerprint.body) : null,
    pairsSimhash: fingerprint ? simhashHex(fingerprint.pairs) : null,
    titleSimhash: fingerprint?.title != null ? simhashHex(fingerprint.title) : null,
    textChars: analysis.text.length,
    pageChars: analysis.pageChars,
    contentWords: fingerprint?.tokens ?? 0,
  };
}

function formatSimilarReport(report: SimilarReport): string {
  const distance = (value: number | null, limit: number) => (value === null ? '-' : `${value} (at most ${limit})`);
  const side = (name: string, page: SimilarPage) => [
    `${name}  ${page.url}`,
    `   title        ${page.title ?? '-'}`,
    `   main text    ${page.textChars} characters, ${page.contentWords} content words (whole page ${page.pageChars} characters)`,
    `   digest       ${page.digest} (raw body ${page.rawDigest})`,
    `   simhash      ${page.simhash ?? '-'}  word pairs ${page.pairsSimhash ?? '-'}  headline ${page.titleSimhash ?? '-'}`,
  ];
  const lines = [
    ...side('A', report.a),
    ...side('B', report.b),
    `distance       main text ${distance(report.bodyDistance, report.limits.body)}, word pairs ${distance(report.pairsDistance, report.limits.pairs)}, headline ${report.titleDistance ?? '-'}`,
    `in common      ${report.resemblance === null ? '-' : `${Math.round(report.resemblance * 100)}% of runs of four content words (at least ${Math.round(report.limits.resemblance * 100)}%)`}`,
    `decision       ${report.decision.replace('_', ' ')}: ${report.reason}`,
  ];
  return textLines(lines);
}
