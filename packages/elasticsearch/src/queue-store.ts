import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, estypes } from '@elastic/elasticsearch';
import { BackendError, NEVER_DUE, SCHEDULABLE_STATUSES, type LinkRecord } from '@crawler/core';
import { BulkItemsError, toBackendError, type BulkFailure } from './elasticsearch-errors.js';
import { nextDueRequest, partitionFilter } from './link-queries.js';
import { queueIndexName, type QueueDoc } from './queue-index.js';
import type { QueuePageRequest } from './queue-rotation.js';

/** A queue as the walk read it: the version its raise is conditional on. */
export interface QueueHit {
  doc: QueueDoc;
  seqNo: number;
  primaryTerm: number;
}

/** What the walk leaves out: paused queues, and queues of partitions this caller does not own. */
export interface QueueFilter {
  excludeQueues?: readonly string[];
  partitions?: readonly number[];
}

/** Rounds of 429 (write queue full) answers an item may get before the call fails. */
const MAX_BULK_RETRIES = 4;
/** Lowerings of one queue still changed by other writers after this many rounds fail the call (retriable). */
const MAX_LOWER_ATTEMPTS = 50;

/** The earliest time the record can be handed out: its time, or its lease's end; null when it never will. */
export function earliestDue(record: LinkRecord): number | null {
  if (!SCHEDULABLE_STATUSES.includes(record.status) || record.nextFetchAt >= NEVER_DUE) return null;
  return Math.max(record.nextFetchAt, record.leaseUntil);
}

/** Per queue of the records, the earliest due among its records, and its partition; queues with none are left out. */
export function queuesOf(records: readonly LinkRecord[]): QueueDoc[] {
  const out = new Map<string, QueueDoc>();
  for (const record of records) {
    const dueAt = earliestDue(record);
    if (dueAt === null) continue;
    const known = out.get(record.queueKey);
    if (!known || dueAt < known.dueAt)
      out.set(record.queueKey, { queueKey: record.queueKey, dueAt, partition: record.partition });
  }
  return [...out.values()];
}

/** The page of the walk: queues with something due by `now`, in key order, from `after` (exclusive) to `upTo` (inclusive). */
export function dueQueuesPageRequest(
  index: string,
  now: number,
  page: QueuePageRequest,
  filter: QueueFilter,
): estypes.SearchRequest {
  const must: estypes.QueryDslQueryContainer[] = [{ range: { dueAt: { lte: now } } }];
  if (page.upTo !== undefined) must.push({ range: { queueKey: { lte: page.upTo } } });
  must.push(...partitionFilter(filter.partitions));
  const mustNot: estypes.QueryDslQueryContainer[] = filter.excludeQueues?.length
    ? [{ terms: { queueKey: [...filter.excludeQueues] } }]
    : [];
  return {
    index,
    size: page.queues,
    track_total_hits: false,
    request_cache: false,
    seq_no_primary_term: true,
    query: { bool: { filter: must, ...(mustNot.length > 0 ? { must_not: mustNot } : {}) } },
    sort: [{ queueKey: 'asc' }],
    ...(page.after === undefined ? {} : { search_after: [page.after] }),
  };
}

interface NextDueAggregations {
  queues: {
    buckets: {
      key: string;
      due: { doc_count: number };
      waiting: { next: { value: number | null } };
      leased: { next: { value: number | null } };
    }[];
  };
}

interface Version {
  _id: string;
  if_seq_no: number;
  if_primary_term: number;
}

type QueueAction = { create: { _id: string } } | { index: Version } | { delete: Version };
/** A bulk action, with its document when it has one. */
type QueueOp = [QueueAction] | [QueueAction, QueueDoc];

/**
 * The queue index of one link base: one document per queue with the earliest time a URL of it can
 * be due. Writers lower it after their URL writes; selection walks the queues due by now in key
 * order, and a queue it found with nothing due is raised to its next due time (or removed) later,
 * conditional on the version it read. The raise searches only after a refresh that began after
 * that read, so every URL written before a lowering the read saw is in its search; a lowering
 * after the read changed the version, and the raise is dropped.
 */
export class QueueStore {
  readonly index: string;

  constructor(
    private readonly client: Client,
    private readonly linkIndex: string,
    private readonly node: string,
    /** Called after every write to the queue index: search must wait for a refresh to see it. */
    private readonly wrote: () => void,
  ) {
    this.index = queueIndexName(linkIndex);
  }

  /** Lowers the queues of records just written to the link index (call after that write was acknowledged). */
  lowerFor(records: readonly LinkRecord[]): Promise<void> {
    return this.lower(queuesOf(records));
  }

  /**
   * Lowers each queue's dueAt to the one given if that is sooner, creating missing queues, by
   * compare-and-set (the cluster runs no scripts here). It writes even when dueAt stays: the new
   * version is what makes a raise based on an older read fail, and that raise may have searched
   * before this write's URLs were visible.
   */
  async lower(queues: QueueDoc[]): Promise<void> {
    let pending = queues;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > MAX_LOWER_ATTEMPTS)
        throw new BackendError(
          `elasticsearch lowerQueues on index ${this.index}: ${pending.length} queue(s) changed by other writers ${MAX_LOWER_ATTEMPTS} times in a row; try again`,
        );
      // Full jitter: writers that collided do not collide again in step.
      if (attempt > 1) await sleep(Math.random() * Math.min(100, 2 ** attempt));
      const stored = await this.read(pending.map((queue) => queue.queueKey));
      const ops = pending.map((queue): QueueOp => {
        const current = stored.get(queue.queueKey);
        if (!current) return [{ create: { _id: queue.queueKey } }, queue];
        return [
          { index: { _id: queue.queueKey, if_seq_no: current.seqNo, if_primary_term: current.primaryTerm } },
          { ...current.doc, ...queue, dueAt: Math.min(current.doc.dueAt, queue.dueAt) },
        ];
      });
      const statuses = await this.bulk('lowerQueues', ops, [409]);
      pending = pending.filter((_, i) => statuses[i] === 409);
    }
  }

  /** One page of the walk over queues due by `now`. */
  async page(now: number, request: QueuePageRequest, filter: QueueFilter): Promise<QueueHit[]> {
    const response = await this.call('findDue', () =>
      this.client.search<QueueDoc>(dueQueuesPageRequest(this.index, now, request, filter)),
    );
    return response.hits.hits.map((hit) => ({
      doc: hit._source!,
      seqNo: hit._seq_no!,
      primaryTerm: hit._primary_term!,
    }));
  }

  /**
   * Raises queues read with nothing due to their next due time, or removes those without a
   * schedulable URL left; a queue that has due URLs by now, or changed since it was read, stays.
   * Call only after a refresh that began after the queues were read.
   */
  async raise(queues: QueueHit[], now: number): Promise<void> {
    if (queues.length === 0) return;
    const response = await this.call('findDue', () =>
      this.client.search<unknown, NextDueAggregations>(
        nextDueRequest(
          this.linkIndex,
          now,
          queues.map((queue) => queue.doc.queueKey),
        ),
      ),
    );
    const found = new Map((response.aggregations?.queues.buckets ?? []).map((bucket) => [bucket.key, bucket]));
    const ops: QueueOp[] = [];
    for (const { doc, seqNo, primaryTerm } of queues) {
      const bucket = found.get(doc.queueKey);
      const version = { _id: doc.queueKey, if_seq_no: seqNo, if_primary_term: primaryTerm };
      if (!bucket) ops.push([{ delete: version }]);
      else if (bucket.due.doc_count === 0) {
        const dueAt = Math.min(bucket.waiting.next.value ?? NEVER_DUE, bucket.leased.next.value ?? NEVER_DUE);
        ops.push(dueAt >= NEVER_DUE ? [{ delete: version }] : [{ index: version }, { ...doc, dueAt }]);
      }
    }
    // 409: changed since it was read, so left as it is; 404: removed already.
    if (ops.length > 0) await this.bulk('raiseQueues', ops, [404, 409]);
  }

  /** Realtime multi-get of queues with their versions; missing ones are left out. */
  private async read(keys: string[]): Promise<Map<string, QueueHit>> {
    const response = await this.call('lowerQueues', () => this.client.mget<QueueDoc>({ index: this.index, ids: keys }));
    const out = new Map<string, QueueHit>();
    for (const doc of response.docs) {
      if ('error' in doc)
        throw new BackendError(
          `elasticsearch lowerQueues on index ${this.index}: reading ${doc._id} failed: ${doc.error.type}: ${doc.error.reason ?? ''}`,
        );
      if (doc.found && doc._source)
        out.set(doc._id, { doc: doc._source, seqNo: doc._seq_no!, primaryTerm: doc._primary_term! });
    }
    return out;
  }

  /** One bulk request; returns each item's status in order. 429s are sent again after a pause; statuses in `accept` are the caller's. */
  private async bulk(operation: string, ops: QueueOp[], accept: number[]): Promise<number[]> {
    const statuses = new Array<number>(ops.length);
    let todo = ops.map((_, i) => i);
    for (let round = 0; todo.length > 0; round++) {
      let response: estypes.BulkResponse;
      try {
        response = await this.call(operation, () =>
          // Every write here is conditional: one the client resent after a timeout would answer 409 though it was applied.
          this.client.bulk({ index: this.index, operations: todo.flatMap((i) => ops[i]!) }, { maxRetries: 0 }),
        );
      } finally {
        this.wrote();
      }
      const overloaded: number[] = [];
      const failures: BulkFailure[] = [];
      response.items.forEach((entry, position) => {
        const i = todo[position]!;
        const item = Object.values(entry)[0]!;
        statuses[i] = item.status;
        if (item.status < 300 || accept.includes(item.status)) return;
        if (item.status === 429 && round < MAX_BULK_RETRIES) overloaded.push(i);
        else
          failures.push({
            id: item._id ?? '',
            status: item.status,
            type: item.error?.type ?? 'unknown',
            reason: item.error?.reason ?? '',
          });
      });
      if (failures.length > 0) throw new BulkItemsError(operation, this.index, failures);
      todo = overloaded;
      if (todo.length > 0) await sleep(100 * 2 ** round);
    }
    return statuses;
  }

  private async call<T>(operation: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw toBackendError(error, operation, this.index, this.node);
    }
  }
}
