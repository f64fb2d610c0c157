import { Topics, topicSpec } from './catalog.js';
import { partitionForKey } from './runtime/partitioner.js';

/**
 * The crawl.status partition of a queue key, as Kafka's default partitioner places the statuses
 * keyed by it: the scheduler that holds that partition owns the queue's URLs (leases, outcomes).
 * The count is the catalog's; a topic altered to another count would move every queue, so the
 * services warn when a topic's partitions differ from the catalog.
 */
export function linkPartition(queueKey: string, partitions: number = linkPartitionCount()): number {
  return partitionForKey(queueKey, partitions);
}

/** Partitions of crawl.status: the bound on how many schedulers own something. */
export function linkPartitionCount(): number {
  return topicSpec(Topics.status).partitions;
}
