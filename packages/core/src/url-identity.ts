import type { UrlIdentity } from './messages.js';

/**
 * The fields that name a URL and its crawl, copied from the message a stage read into the one it
 * writes: every message about a URL carries them unchanged (schemas' UrlIdentity), extra fields left behind.
 */
export function urlIdentityOf(message: UrlIdentity): UrlIdentity {
  const { url, urlId, host, queueKey, depth, jobId, traceId } = message;
  return { url, urlId, host, queueKey, depth, jobId, traceId };
}
