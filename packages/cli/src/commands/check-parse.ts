import { loadCrawlJob, parseCrawlJob } from '@crawler/core';
import { createPageParser, extractLimitsOf, loadLinkextractConfig, type ParsedContent } from '@crawler/linkextract';
import { parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';
import { checkFileOptions, createCheckFetcher, fetcherFrames, fetchPage, readPage } from './parse-input.js';
import { jsonLine, markdownText, textLines } from '../terminal-text.js';

export const checkParseHelp = `Usage: crawler check parse [options] URL|FILE

Parses one page as link extraction does and shows what it found: links with their rel, anchor
and source, links not passed on (counted by reason), canonical URL, title, description,
language, publish date, main text, structured fields and warnings; or, with --markdown, the main
content as Markdown, as crawl.pages and the page store keep it. A URL is fetched as the
fetcher does (robots.txt, address policy, charset); a file is read as is. HTML, RSS/Atom,
sitemaps (gzipped too) and plain text are understood.

  --base URL            a file's URL, for resolving its links (default http://example.invalid/<file>)
  --job FILE            the crawl job whose scope, URL options and extraction rules apply
                        (default: any host in scope, no rules)
  --content-type TYPE   a file's media type (default: from its extension, else sniffed)
  --charset NAME        a file's charset (default: UTF-8)
  --splice-frames       fetch the page's frames and stitch their text into its text
  --markdown            print only the main content as Markdown (links and images absolute)
  --user-agent TEXT     User-Agent to send (keep a contact URL in it)
  --allow-address IP    admit a private/loopback address or CIDR (repeatable)
  --ignore-robots       do not read robots.txt (only for sites you own)
  --json                one JSON object on stdout
  -h, --help            this help

Exit code 0 when the page was parsed, 1 when it could not be fetched.`;

export const flagSpec = {
  base: { type: 'string' },
  job: { type: 'string' },
  'content-type': { type: 'string' },
  charset: { type: 'string' },
  'splice-frames': { type: 'boolean' },
  'user-agent': { type: 'string' },
  'allow-address': { type: 'string', multiple: true },
  'ignore-robots': { type: 'boolean' },
  markdown: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

export interface ParseReport extends Omit<ParsedContent, 'dropped' | 'publishedAt'> {
  url: string;
  finalUrl: string;
  contentType: string | null;
  publishedAt: string | null;
  dropped: Record<string, number>;
}

export async function checkParseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('check parse', argv, flagSpec, true);
  if (values.help) {
    process.stdout.write(`${checkParseHelp}\n`);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError('crawler check parse: give exactly one URL or file (see crawler check parse --help)');
  const target = positionals[0]!;
  if (values.markdown && values.json)
    throw new UsageError('crawler check parse: --markdown or --json, not both (the JSON report holds the Markdown)');
  checkFileOptions(values.base, values['content-type'], values.charset);
  const isUrl = /^https?:\/\//i.test(target);
  const baseJob = values.job ? loadCrawlJob(values.job) : parseCrawlJob({ scope: { mode: 'any' } });
  const job = values['splice-frames']
    ? parseCrawlJob({ ...baseJob, extraction: { ...baseJob.extraction, spliceFrames: true } })
    : baseJob;
  const config = loadLinkextractConfig();
  const fetcher =
    isUrl || values['splice-frames']
      ? createCheckFetcher({
          userAgent: values['user-agent'],
          allowAddresses: values['allow-address'],
          ignoreRobots: values['ignore-robots'],
        })
      : null;
  try {
    let page;
    if (isUrl) {
      const fetched = await fetchPage(fetcher!.parts, target);
      if (!fetched.ok) {
        process.stderr.write(
          textLines([
            `crawler check parse: ${target} was not fetched: ${fetched.outcome}${fetched.httpStatus ? ` (HTTP ${fetched.httpStatus})` : ''}${fetched.message ? `: ${fetched.message}` : ''}`,
          ]),
        );
        return 1;
      }
      page = fetched.page;
    } else {
      page = readPage(target, values.base, values['content-type'], values.charset);
    }
    const parse = createPageParser({
      job,
      limits: extractLimitsOf(config),
      followNofollow: config.followNofollow,
      maxInputBytes: config.maxInputBytes,
      robotsAgent: config.robotsAgent,
      frames: fetcher ? fetcherFrames(fetcher.parts) : undefined,
    });
    const content = await parse(page);
    const report: ParseReport = {
      ...content,
      url: page.url,
      finalUrl: page.finalUrl,
      contentType: page.mediaType,
      publishedAt: content.publishedAt === null ? null : new Date(content.publishedAt).toISOString(),
      dropped: Object.fromEntries(content.dropped),
    };
    if (values.markdown) process.stdout.write(markdownLines(report));
    else process.stdout.write(values.json ? jsonLine(report) : formatParseReport(report));
    return 0;
  } finally {
    await fetcher?.close();
  }
}

function markdownLines(report: ParseReport): string {
  if (report.markdown === null) return textLines([`(no Markdown: the document is ${report.kind}, not HTML)`]);
  return markdownText(report.markdown);
}

function formatParseReport(report: ParseReport): string {
  const lines = [
    `url          ${report.url}${report.finalUrl !== report.url ? ` -> ${report.finalUrl}` : ''}`,
    `document     ${report.kind} (${report.contentType ?? 'type unknown'}, ${report.charset ?? 'no charset'})`,
    `canonical    ${report.canonicalUrl ?? '-'}`,
    `title        ${report.title ?? '-'}`,
    `description  ${report.description ?? '-'}`,
    `language     ${report.lang ?? '-'}`,
    `published    ${report.publishedAt ?? '-'}`,
    `robots       ${report.noindex ? 'noindex' : 'index'}, ${report.nofollow ? 'nofollow' : 'follow'}`,
    `warnings     ${report.warnings.join(', ') || '-'}`,
    `links        ${report.links.length} kept; not passed on: ${
      Object.entries(report.dropped)
        .map(([reason, count]) => `${reason} ${count}`)
        .join(', ') || 'none'
    }`,
    ...report.links.map(
      (link) =>
        `  ${link.source.padEnd(12)} ${(link.rel ?? '').padEnd(10)} ${link.url}${link.anchor ? `  "${link.anchor}"` : ''}`,
    ),
    `fields       ${Object.keys(report.fields).length === 0 ? '-' : ''}`,
    ...Object.entries(report.fields).map(([name, values]) => `  ${name}: ${values.join(' | ')}`),
    `main text    (${report.textMethod}, ${report.text.length} characters)`,
    ...report.text.split('\n'),
  ];
  return textLines(lines);
}
