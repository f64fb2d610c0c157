import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { encodingName, silentLogger } from '@crawler/core';
import { createFetcherParts, fetchDocument, fetchUrl, loadFetcherConfig, type FetcherParts } from '@crawler/fetcher';
import type { FrameFetcher, PageInput } from '@crawler/linkextract';
import { UsageError } from '../usage-error.js';

/** Media types `crawler check parse` downloads: everything link extraction can read. */
const PARSEABLE_TYPES = [
  'text/html',
  'application/xhtml+xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/xml',
  'text/xml',
  'text/plain',
  'application/gzip',
  'application/x-gzip',
];
const TYPE_BY_EXTENSION: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  xml: 'application/xml',
  rss: 'application/rss+xml',
  atom: 'application/atom+xml',
  txt: 'text/plain',
  gz: 'application/gzip',
};

export interface FetchOptions {
  userAgent?: string;
  allowAddresses?: string[];
  ignoreRobots?: boolean;
}

export type PageSource =
  | { ok: true; page: PageInput & { url: string } }
  | { ok: false; outcome: string; httpStatus: number | null; message: string | null };

/** A fetcher built from FETCHER_* settings and the flags, for one command; close() releases its connections. */
export function createCheckFetcher(options: FetchOptions): { parts: FetcherParts; close(): Promise<void> } {
  const overrides: Record<string, unknown> = { minDelayMs: 0, contentTypes: PARSEABLE_TYPES };
  if (options.userAgent) overrides.userAgent = options.userAgent;
  if (options.allowAddresses) overrides.allowAddresses = options.allowAddresses;
  if (options.ignoreRobots) overrides.obeyRobots = false;
  const parts = createFetcherParts(loadFetcherConfig({ overrides }), null, silentLogger());
  return {
    parts,
    close: async () => {
      parts.gate.close();
      await parts.client.close();
    },
  };
}

/** Fetches a URL as the fetcher does (robots.txt, address policy, charset choice). */
export async function fetchPage(parts: FetcherParts, url: string): Promise<PageSource> {
  await parts.policy.ready();
  const result = await fetchUrl(parts.deps, { url, jobId: 'check', etag: null, lastModified: null });
  if (result.kind !== 'page')
    return {
      ok: false,
      outcome: result.outcome,
      httpStatus: result.httpStatus,
      message: result.errorMessage ?? result.redirectTo ?? null,
    };
  return {
    ok: true,
    page: {
      url,
      body: result.body,
      finalUrl: result.finalUrl,
      depth: 0,
      mediaType: result.contentType,
      charset: result.charset,
      headers: result.headers,
    },
  };
}

/** --base, --content-type and --charset of a file, checked before anything is read or fetched. */
export function checkFileOptions(
  base: string | undefined,
  mediaType: string | undefined,
  charset: string | undefined,
): void {
  if (base !== undefined && (!URL.canParse(base) || !/^https?:/i.test(base)))
    throw new UsageError(`crawler check parse: --base "${base}" is not an http(s) URL`);
  if (mediaType !== undefined && !/^[\w.+-]+\/[\w.+-]+$/.test(mediaType))
    throw new UsageError(`crawler check parse: --content-type "${mediaType}" is not a media type (type/subtype)`);
  if (charset !== undefined && encodingName(charset) === null)
    throw new UsageError(`crawler check parse: --charset "${charset}" is not a known character encoding`);
}

/** Reads a local file; its links resolve against `base` (default http://example.invalid/<file name>). */
export function readPage(
  file: string,
  base: string | undefined,
  mediaType: string | undefined,
  charset: string | undefined,
): PageInput & { url: string } {
  let body: Buffer;
  try {
    body = readFileSync(file);
  } catch (error) {
    throw new UsageError(`crawler check parse: cannot read ${file}: ${(error as Error).message}`);
  }
  const url = base ?? `http://example.invalid/${encodeURIComponent(basename(file))}`;
  if (!URL.canParse(url) || !/^https?:/i.test(url))
    throw new UsageError(`crawler check parse: --base "${base}" is not an http(s) URL`);
  const extension = file.toLowerCase().split('.').pop() ?? '';
  return {
    url,
    body,
    finalUrl: url,
    depth: 0,
    mediaType: mediaType ?? TYPE_BY_EXTENSION[extension] ?? null,
    charset: charset ?? null,
    headers: {},
  };
}

/** Frames fetched through the same fetcher: robots.txt and the address policy apply to them too. */
export function fetcherFrames(parts: FetcherParts): FrameFetcher {
  return { fetchFrame: (url, signal) => fetchDocument(parts.deps, url, 'check', signal) };
}
