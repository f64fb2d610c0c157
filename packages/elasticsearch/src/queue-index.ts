import type { Client, estypes } from '@elastic/elasticsearch';
import { SCHEDULABLE_STATUSES } from '@crawler/core';
import { responseCause } from './elasticsearch-errors.js';
import type { ElasticsearchConfig } from './elasticsearch-settings.js';

/** One queue (host) of the link base: the earliest time one of its URLs can be due, and its partition. */
export interface QueueDoc {
  queueKey: string;
  /** No URL of the queue is due before this (a lower bound: URLs lower it, selection raises it). */
  dueAt: number;
  /** The crawl.status partition of the queue (link-partition.ts), absent for records written before partitions. */
  partition?: number;
}

/** The index beside the link base with one small document per queue: what selection walks instead of the URLs. */
export function queueIndexName(index: string): string {
  return `${index}-queues`;
}

export const QUEUE_MAPPINGS: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  properties: {
    queueKey: { type: 'keyword' },
    dueAt: { type: 'date', format: 'epoch_millis' },
    partition: { type: 'integer' },
  },
};

/** Sorted by key on disk, so the walk in key order stops after the queues it asked for. */
const QUEUE_SETTINGS = (config: Pick<ElasticsearchConfig, 'replicas'>): estypes.IndicesIndexSettings => ({
  number_of_shards: 1,
  number_of_replicas: config.replicas,
  sort: { field: 'queueKey', order: 'asc' },
});

/** Queues per page of the backfill's composite aggregation: each page reads every URL again, so few large pages. */
const BACKFILL_PAGE = 10_000;

/**
 * Creates the queue index if missing; an existing one gets the current mappings. Returns true when
 * this call created it.
 */
export async function installQueueIndex(
  client: Client,
  config: Pick<ElasticsearchConfig, 'index' | 'replicas'>,
): Promise<boolean> {
  const index = queueIndexName(config.index);
  try {
    await client.indices.create({ index, settings: QUEUE_SETTINGS(config), mappings: QUEUE_MAPPINGS });
    return true;
  } catch (error) {
    if (responseCause(error).type !== 'resource_already_exists_exception') throw error;
  }
  await client.indices.putMapping({ index, ...QUEUE_MAPPINGS });
  return false;
}

interface BackfillKey {
  queueKey: string;
  partition: number | null;
}

interface BackfillAggregations {
  queues: {
    after_key?: BackfillKey;
    buckets: { key: BackfillKey; dueAt: { value: number | null } }[];
  };
}

/**
 * Writes a queue document for every queue with a schedulable URL, from one pass over the link index:
 * what a link base written before the queue index existed needs once. Each queue gets its earliest
 * nextFetchAt (leases aside, so a lower bound); `lower` keeps it from raising what writers lowered meanwhile.
 */
export async function backfillQueues(
  client: Client,
  index: string,
  lower: (queues: QueueDoc[]) => Promise<void>,
): Promise<number> {
  let after: BackfillKey | undefined;
  let written = 0;
  // URLs written just before this open count too.
  await client.indices.refresh({ index });
  for (;;) {
    const response = await client.search<unknown, BackfillAggregations>({
      index,
      size: 0,
      track_total_hits: false,
      query: { bool: { filter: [{ terms: { status: [...SCHEDULABLE_STATUSES] } }] } },
      aggs: {
        queues: {
          composite: {
            size: BACKFILL_PAGE,
            // A queue's URLs share its partition; records from before partitions have none.
            sources: [
              { queueKey: { terms: { field: 'queueKey' } } },
              { partition: { terms: { field: 'partition', missing_bucket: true } } },
            ],
            ...(after ? { after } : {}),
          },
          aggs: { dueAt: { min: { field: 'nextFetchAt' } } },
        },
      },
    });
    const queues = response.aggregations?.queues;
    const docs = (queues?.buckets ?? [])
      .filter((bucket) => bucket.dueAt.value !== null)
      .map((bucket) => ({
        queueKey: bucket.key.queueKey,
        dueAt: bucket.dueAt.value!,
        ...(bucket.key.partition === null ? {} : { partition: bucket.key.partition }),
      }));
    if (docs.length > 0) await lower(docs);
    written += docs.length;
    if (!queues?.after_key || (queues.buckets.length ?? 0) < BACKFILL_PAGE) return written;
    after = queues.after_key;
  }
}
