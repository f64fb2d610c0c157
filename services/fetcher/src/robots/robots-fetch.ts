import { ErrorCode } from '@crawler/core';
import type { Hop } from '@crawler/core';
import type { HttpClient } from '../http-client.js';
import { outcomeOfError } from '../outcome.js';
import { ROBOTS_PARSE_LIMIT } from './robots-txt.js';

/** RFC 9309 2.3.1.2: follow at least five consecutive redirects. */
export const MAX_ROBOTS_REDIRECTS = 5;

/**
 * What fetching robots.txt yielded, in a form that can be stored and shared between fetchers:
 * the file (parsed by whoever reads it), "allow all" (4xx, or too many redirects) or
 * "unavailable" (5xx, 429, no answer), which keeps the site off limits for a while.
 */
export type RobotsRecord =
  | { kind: 'file'; body: string; fetchedAt: number; finalUrl: string }
  | { kind: 'allow-all'; httpStatus: number | null; reason: string; fetchedAt: number }
  | { kind: 'unavailable'; httpStatus: number | null; errorCode: string; fetchedAt: number };

export interface RobotsFetch {
  record: RobotsRecord;
  hops: Hop[];
}

/**
 * Fetches a robots.txt (normally the origin's /robots.txt), following up to five redirects (to
 * any origin, each through the address policy like any request). A blocked address is thrown:
 * the URL's own fetch would be blocked too, and that is the outcome the caller must report.
 */
export async function fetchRobots(
  client: HttpClient,
  robotsUrl: URL,
  timeoutMs: number,
  now: () => number = Date.now,
): Promise<RobotsFetch> {
  let url = robotsUrl;
  const hops: Hop[] = [];
  const signal = AbortSignal.timeout(timeoutMs);
  // One byte past the parse limit tells the parser the file goes on, so it drops a line cut in two.
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await client.get({
        url,
        signal,
        maxBodyBytes: ROBOTS_PARSE_LIMIT + 1,
        wantBody: (status) => status >= 200 && status < 300,
      });
      const location = response.status >= 300 && response.status < 400 ? response.headers.location : undefined;
      hops.push({ url: url.href, status: response.status, location: location ?? null });
      if (location) {
        if (redirects >= MAX_ROBOTS_REDIRECTS)
          return {
            hops,
            record: {
              kind: 'allow-all',
              httpStatus: response.status,
              reason: `more than ${MAX_ROBOTS_REDIRECTS} redirects`,
              fetchedAt: now(),
            },
          };
        url = new URL(location, url);
        continue;
      }
      // Rules still encoded in a coding we cannot read are not known: as unreachable as a 5xx.
      if (response.status >= 200 && response.status < 300 && response.undecodedEncoding !== undefined)
        return {
          hops,
          record: {
            kind: 'unavailable',
            httpStatus: response.status,
            errorCode: ErrorCode.CONTENT_ENCODING_UNSUPPORTED,
            fetchedAt: now(),
          },
        };
      if (response.status >= 200 && response.status < 300)
        return {
          hops,
          record: { kind: 'file', body: response.body.toString('utf8'), fetchedAt: now(), finalUrl: url.href },
        };
      // 429 is a 4xx, but a site that says "too many requests" is not inviting a crawl either.
      if (response.status === 429 || response.status >= 500)
        return {
          hops,
          record: {
            kind: 'unavailable',
            httpStatus: response.status,
            errorCode: `HTTP_${response.status}`,
            fetchedAt: now(),
          },
        };
      return {
        hops,
        record: { kind: 'allow-all', httpStatus: response.status, reason: `HTTP ${response.status}`, fetchedAt: now() },
      };
    }
  } catch (error) {
    const classified = outcomeOfError(error);
    if (classified.outcome === 'blocked_address') throw error;
    return { hops, record: { kind: 'unavailable', httpStatus: null, errorCode: classified.code, fetchedAt: now() } };
  }
}
