import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createPageStore } from '@crawler/adapters';
import {
  canonicalUrl,
  loadRuntimeConfig,
  rawBody,
  silentLogger,
  type RuntimeConfig,
  type StoredPage,
} from '@crawler/core';
import { reach } from '../ops/stack-access.js';
import { parseFlags } from '../parse-flags.js';
import { UsageError } from '../usage-error.js';
import { jsonLine, markdownText, textLines } from '../terminal-text.js';

export const pageHelp = `Usage: crawler page get [options] URL

Reads a stored page back as dedup wrote it: fetch metadata, the dedup decision (new or changed),
digests, SimHash and verdict, title, main text and fields; the newest version, or every version
kept with --versions; or, with --markdown, the newest version's main content as Markdown. From the WARC files of an embedded crawl (--out, as given to crawler run or
crawler demo), or else from the page store the services use (CRAWLER_PAGE_STORE: hbase with
HBASE_REST_URL and HBASE_TABLE, or warc under CRAWLER_DATA_DIR). The URL is looked up in its
canonical form.

  --out DIR             the output folder of an embedded crawl
  --versions            every version kept, newest first
  --markdown            print only the newest version's Markdown (links and images absolute)
  --json                the records as JSON, one per line (body base64, uncompressed)
  -h, --help            this help

Exit code 0 when the page has a stored version, 1 when it has none or the store cannot be reached.`;

export const flagSpec = {
  out: { type: 'string' },
  versions: { type: 'boolean' },
  markdown: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

/** How many versions --versions asks for: every one a store keeps (HBase keeps HBASE_MAX_VERSIONS). */
const ALL_VERSIONS = 1000;

export async function pageCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [action, ...rest] = argv;
  if (!action || action === '--help' || action === '-h') {
    (action ? process.stdout : process.stderr).write(`${pageHelp}\n`);
    return action ? 0 : 2;
  }
  if (action !== 'get') throw new UsageError(`crawler page: unknown action "${action}" (see crawler page --help)`);
  const { values, positionals } = parseFlags('page get', rest, flagSpec, true);
  if (values.help) {
    process.stdout.write(`${pageHelp}\n`);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError('crawler page get: give exactly one URL (see crawler page get --help)');
  if (values.markdown && (values.json || values.versions))
    throw new UsageError('crawler page get: --markdown shows the newest version alone, without --json or --versions');
  const url = canonicalUrl(positionals[0]!);
  if (!url) throw new UsageError(`crawler page get: "${positionals[0]}" is not an http(s) URL`);
  const { runtime, where } = pageStoreSettings(values.out, env);
  const store = await reach(where, () => createPageStore(runtime, silentLogger(), { env, readOnly: true }));
  try {
    const versions = await reach(where, () => store.get(url, { versions: values.versions ? ALL_VERSIONS : 1 }));
    if (versions.length === 0) {
      process.stderr.write(`crawler page get: ${url} has no stored version in ${where}\n`);
      return 1;
    }
    if (values.markdown) process.stdout.write(markdownLines(versions[0]!));
    else if (values.json) for (const version of versions) process.stdout.write(jsonLine(pageJson(version)));
    else process.stdout.write(formatVersions(versions));
    return 0;
  } finally {
    await store.close();
  }
}

function pageStoreSettings(out: string | undefined, env: NodeJS.ProcessEnv): { runtime: RuntimeConfig; where: string } {
  if (out !== undefined) {
    if (!existsSync(join(out, 'warc')))
      throw new UsageError(
        `crawler page get: no WARC files under ${join(out, 'warc')}: --out names the folder given to crawler run`,
      );
    return {
      runtime: loadRuntimeConfig({ env, overrides: { pageStore: 'warc', dataDir: out } }),
      where: `the WARC files under ${join(out, 'warc')}`,
    };
  }
  const runtime = loadRuntimeConfig({ env });
  const where =
    runtime.pageStore === 'warc'
      ? `the WARC files under ${join(runtime.dataDir, 'warc')} (CRAWLER_DATA_DIR)`
      : `HBase table ${env.HBASE_TABLE ?? 'crawler_pages'} (HBASE_REST_URL, HBASE_TABLE)`;
  return { runtime, where };
}

/** The stored record with its body uncompressed and base64-encoded, the rest as stored. */
export function pageJson(page: StoredPage): Record<string, unknown> {
  const body = rawBody(page.body, page.bodyEncoding);
  return {
    ...page,
    body: body.toString('base64'),
    bodyEncoding: 'base64',
    fetchedAt: new Date(page.fetchedAt).toISOString(),
    publishedAt: page.publishedAt === null ? null : new Date(page.publishedAt).toISOString(),
  };
}

function markdownLines(page: StoredPage): string {
  if (page.markdown === null)
    return textLines([
      `(no Markdown: stored from a ${page.contentType ?? 'document'} that is not HTML, or before pages had it)`,
    ]);
  return markdownText(page.markdown);
}

function formatVersions(versions: StoredPage[]): string {
  const [newest] = versions;
  const lines = [
    `url          ${newest!.url}${newest!.finalUrl !== newest!.url ? ` (body from ${newest!.finalUrl})` : ''}`,
    `versions     ${versions.length}${versions.length > 1 ? ', newest first' : ''}`,
  ];
  for (const version of versions) {
    lines.push(
      '',
      `fetched      ${new Date(version.fetchedAt).toISOString()}  HTTP ${version.httpStatus}  ${version.contentType ?? 'type unknown'}  ${version.bodyLength} bytes${version.truncated ? ' (truncated)' : ''}`,
      `decision     ${version.change}${version.verdict ? `, verdict ${version.verdict}` : ''}`,
      `digests      ${version.digest} (raw body ${version.rawDigest})${version.simhash ? `, simhash ${version.simhash}` : ''}`,
      `title        ${version.title ?? '-'}`,
      `links        ${version.links.length}; fields ${Object.keys(version.fields).length}`,
    );
  }
  lines.push('', `main text    (${newest!.text.length} characters, newest version)`, ...newest!.text.split('\n'));
  return textLines(lines);
}
