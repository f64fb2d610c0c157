import type { estypes } from '@elastic/elasticsearch';
import type { LinkRecord } from '@crawler/core';
import type { ElasticsearchConfig } from './elasticsearch-settings.js';

type Property = estypes.MappingProperty;

/** 8191 characters stay under Lucene's 32766-byte term limit: a longer value is kept in _source, not indexed. */
const keyword: Property = { type: 'keyword', ignore_above: 8191 };
/** Epoch milliseconds as given; `date` also holds NEVER_DUE (Number.MAX_SAFE_INTEGER, core next-fetch.ts). */
const time: Property = { type: 'date', format: 'epoch_millis' };
const integer: Property = { type: 'integer' };

/** One mapping per LinkRecord field: the type checker fails the build when the record gains a field. */
export const LINK_PROPERTIES: Record<keyof LinkRecord, Property> = {
  id: { type: 'keyword' },
  url: keyword,
  surt: keyword,
  host: keyword,
  domain: keyword,
  queueKey: keyword,
  // The owning scheduler's findDue filters on it (terms), so a scheduler reads only its partitions' URLs.
  partition: { type: 'short' },
  jobId: keyword,
  depth: integer,
  source: keyword,
  discoveredAt: time,
  anchors: { type: 'text' },
  inlinks: integer,
  status: keyword,
  fetchCount: integer,
  lastFetchAt: time,
  lastSeenAt: time,
  lastChangeAt: time,
  consecutiveFailures: integer,
  lastOutcome: keyword,
  httpStatus: integer,
  etag: keyword,
  lastModified: keyword,
  digest: keyword,
  redirectTo: keyword,
  redirectHops: integer,
  duplicateOf: keyword,
  errorCode: keyword,
  // Scores are fractional; float keeps their order.
  value: { type: 'float' },
  priority: { type: 'float' },
  level: { type: 'byte' },
  rank: { type: 'float' },
  trafficClass: keyword,
  changeRate: { type: 'float' },
  // Read back with the record, never searched: kept in _source only.
  changeHistory: { type: 'object', enabled: false },
  linkYield: { type: 'float' },
  sitemapChangefreq: keyword,
  sitemapLastmod: time,
  nextFetchAt: time,
  leaseUntil: time,
  leaseExpiries: integer,
};

export const LINK_MAPPINGS: estypes.MappingTypeMapping = { dynamic: 'strict', properties: LINK_PROPERTIES };

/** Most records of one queue that findDue takes per round: top_hits may not return more than the index allows. */
export const MAX_PER_QUEUE = 1000;

/** Index settings that may change on a live index; applied again when the index already exists. */
export function dynamicIndexSettings(config: Pick<ElasticsearchConfig, 'replicas'>): estypes.IndicesIndexSettings {
  return { number_of_replicas: config.replicas, max_inner_result_window: MAX_PER_QUEUE };
}

/** The composable template for exactly the configured index (no wildcard, so it never captures other indices). */
export function linkIndexTemplate(
  config: Pick<ElasticsearchConfig, 'index' | 'shards' | 'replicas'>,
): estypes.IndicesPutIndexTemplateRequest {
  return {
    name: config.index,
    index_patterns: [config.index],
    // Above the built-in templates (100-ish) and any catch-all a user may have.
    priority: 500,
    _meta: { description: 'Crawler link base (@crawler/elasticsearch)' },
    template: {
      settings: { number_of_shards: config.shards, ...dynamicIndexSettings(config) },
      mappings: LINK_MAPPINGS,
    },
  };
}
