import { Topics } from './catalog.js';
import { Schemas, type StatusUpdate, type UrlIdentity } from './messages.js';
import type { Emission } from './runtime/stage.js';
import { withUrlIdentity } from './url-identity.js';

/** What a stage knows about a URL's outcome: the outcome and its time, and whatever else it has to say. */
export type StatusFields = Pick<StatusUpdate, 'outcome' | 'fetchedAt'> &
  Partial<Omit<StatusUpdate, keyof UrlIdentity | 'outcome' | 'fetchedAt'>>;

/**
 * The status of the URL `about` names: its identity copied, the fields given, every other field
 * empty (null, attempt 0, not retriable, no meta). Every StatusUpdate is built here, so a field
 * the schema gains is given its empty value once.
 */
export function statusUpdate(about: UrlIdentity, fields: StatusFields): StatusUpdate {
  return withUrlIdentity(about, {
    outcome: fields.outcome,
    httpStatus: fields.httpStatus ?? null,
    fetchedAt: fields.fetchedAt,
    attempt: fields.attempt ?? 0,
    redirectTo: fields.redirectTo ?? null,
    change: fields.change ?? null,
    duplicateOf: fields.duplicateOf ?? null,
    distance: fields.distance ?? null,
    digest: fields.digest ?? null,
    rawDigest: fields.rawDigest ?? null,
    etag: fields.etag ?? null,
    lastModified: fields.lastModified ?? null,
    retryAfterMs: fields.retryAfterMs ?? null,
    errorCode: fields.errorCode ?? null,
    errorMessage: fields.errorMessage ?? null,
    retriable: fields.retriable ?? false,
    verdict: fields.verdict ?? null,
    meta: fields.meta ?? {},
  });
}

/** The status of a URL as a stage emits it: on crawl.status, keyed by the URL's queue like everything about it. */
export function statusEmission(about: UrlIdentity, fields: StatusFields): Emission {
  return {
    topic: Topics.status,
    schema: Schemas.StatusUpdate,
    key: about.queueKey,
    value: statusUpdate(about, fields),
  };
}
