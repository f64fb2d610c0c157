import type { estypes } from '@elastic/elasticsearch';
import type { LinkBaseStats, LinkRecord } from '@crawler/core';

interface Bucket {
  key: string | number;
  doc_count: number;
}

export interface StatsAggregations {
  byStatus: { buckets: Bucket[] };
  byJob: { buckets: (Bucket & { visited: { doc_count: number } })[] };
  leased: { doc_count: number };
  due?: {
    doc_count: number;
    byClass: { buckets: Bucket[] };
    byLevel: { buckets: Bucket[] };
    topQueues: { buckets: Bucket[] };
  };
  later?: { next: { value: number | null } };
}

const counts = (buckets: Bucket[]): Record<string, number> =>
  Object.fromEntries(buckets.map((bucket) => [String(bucket.key), bucket.doc_count]));

/** LinkBaseStats from the answer to statsRequest. */
export function readStats(
  response: estypes.SearchResponse<LinkRecord, StatsAggregations>,
  withDue: boolean,
): LinkBaseStats {
  const aggs = response.aggregations;
  const total = response.hits.total;
  const due = withDue ? aggs?.due : undefined;
  return {
    total: typeof total === 'number' ? total : (total?.value ?? 0),
    byStatus: counts(aggs?.byStatus.buckets ?? []),
    leased: aggs?.leased.doc_count ?? 0,
    byJob: Object.fromEntries(
      (aggs?.byJob.buckets ?? []).map((bucket) => [
        String(bucket.key),
        { total: bucket.doc_count, visited: bucket.visited.doc_count },
      ]),
    ),
    due: withDue ? (due?.doc_count ?? 0) : null,
    dueDetail: withDue
      ? {
          byClass: counts(due?.byClass.buckets ?? []),
          byLevel: counts(due?.byLevel.buckets ?? []),
          topQueues: (due?.topQueues.buckets ?? []).map((bucket) => ({
            queueKey: String(bucket.key),
            due: bucket.doc_count,
          })),
        }
      : null,
    nextDueAt: withDue ? (aggs?.later?.next.value ?? null) : null,
  };
}
