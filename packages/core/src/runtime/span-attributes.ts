import type { Attributes } from '@opentelemetry/api';
import { Schemas, type FetchResult, type ParsedPage, type StatusUpdate, type StoredPage } from '../messages.js';
import type { Emission } from './stage.js';

/**
 * What a stage's span says about one URL, read from what the stage emitted: the fetch outcome and
 * HTTP status, the links a parse found, the dedup decision and whether the page was stored.
 */
export function outcomeAttributes(input: unknown, emissions: readonly Emission[]): Attributes {
  const { url, sourceUrl } = (input ?? {}) as { url?: string; sourceUrl?: string | null };
  const attributes: Attributes = {};
  if (url ?? sourceUrl) attributes['url.full'] = url ?? sourceUrl ?? undefined;
  for (const emission of emissions) {
    const key = `crawler.emitted.${emission.topic}`;
    attributes[key] = Number(attributes[key] ?? 0) + 1;
    if (emission.schema === Schemas.StatusUpdate) {
      const status = emission.value as StatusUpdate;
      if (url !== undefined && status.url !== url) continue;
      attributes['crawler.outcome'] = status.outcome;
      if (status.httpStatus !== null) attributes['http.response.status_code'] = status.httpStatus;
      if (status.change) attributes['crawler.change'] = status.change;
      if (status.duplicateOf) attributes['crawler.duplicate_of'] = status.duplicateOf;
      if (status.distance !== null) attributes['crawler.distance'] = status.distance;
      if (status.redirectTo) attributes['crawler.redirect_to'] = status.redirectTo;
      if (status.errorCode) attributes['error.type'] = status.errorCode;
    } else if (emission.schema === Schemas.FetchResult) {
      const page = emission.value as FetchResult;
      attributes['crawler.outcome'] = 'ok';
      attributes['http.response.status_code'] = page.httpStatus;
      attributes['crawler.truncated'] = page.truncated;
    } else if (emission.schema === Schemas.ParsedPage) {
      attributes['crawler.links'] = (emission.value as ParsedPage).links.length;
    } else if (emission.schema === Schemas.StoredPage) {
      attributes['crawler.stored'] = true;
      attributes['crawler.change'] = (emission.value as StoredPage).change;
    }
  }
  return attributes;
}
