import type { IncomingMessage } from 'node:http';

/** True when the request's validators show the client already has this version (answer 304). */
export function isNotModified(req: IncomingMessage, etag: string, lastModified: string): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    // RFC 9110: If-None-Match uses weak comparison and, when present, If-Modified-Since is ignored.
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === etag);
  }
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Date.parse(lastModified) <= since;
}
