import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, estypes } from '@elastic/elasticsearch';
import {
  BackendError,
  redactUrl,
  type DueQuery,
  linkPartition,
  type LeasedQuery,
  type LinkBase,
  type LinkBaseControl,
  type LinkBaseStats,
  type LinkMutation,
  type LinkRecord,
  type Logger,
  type SharedCounters,
  ErrorCode,
} from '@crawler/core';
import { createElasticsearchClient } from './elasticsearch-client.js';
import { BulkItemsError, toBackendError, type BulkFailure } from './elasticsearch-errors.js';
import type { ElasticsearchConfig } from './elasticsearch-settings.js';
import { controlIndexName, LinkControlStore } from './link-control.js';
import { installLinkIndex } from './link-index.js';
import { MAX_PER_QUEUE } from './link-index-template.js';
import { dueUrlsRequest, isDue, leasedRequest, statsRequest } from './link-queries.js';
import { readStats, type StatsAggregations } from './link-stats.js';
import { backfillQueues, installQueueIndex } from './queue-index.js';
import { QueueRotation, type QueueBatch, type QueuePageRequest } from './queue-rotation.js';
import { QueueStore, type QueueHit } from './queue-store.js';
import { RefreshGate } from './refresh-gate.js';

/** Documents per bulk or multi-get request: a few hundred KB, well under http.max_content_length. */
const BULK_CHUNK = 1000;
/** Bulk requests of one call in flight at once: enough to overlap round trips, not to flood the write pool. */
const BULK_CONCURRENCY = 2;
/** Rounds of 429 (write queue full) answers a bulk item may get before the call fails. */
const MAX_BULK_RETRIES = 4;
/** A record still changed by others after this many read-modify-write rounds fails the call (retriable). */
const MAX_CAS_ATTEMPTS = 50;
const SCAN_PAGE = 1000;
const SCAN_KEEP_ALIVE = '2m';

interface Versioned {
  record: LinkRecord;
  seqNo: number;
  primaryTerm: number;
}

type BulkAction = { create: { _id: string } } | { index: { _id: string; if_seq_no: number; if_primary_term: number } };

interface BulkOp {
  id: string;
  action: BulkAction;
  doc: LinkRecord;
}

interface DueHits {
  hits: { hits: { _source: LinkRecord; _seq_no: number; _primary_term: number }[] };
}

interface LevelBuckets {
  levels: { buckets: { due: DueHits }[] };
}

interface DueAggregations {
  queues: {
    buckets: {
      key: string;
      open: { discovery: LevelBuckets; recrawl: { classes: { buckets: LevelBuckets[] } } };
    }[];
  };
}

/** Groups a queue usually has due at once (discovery and one re-crawl class): the first guess of a queue's yield. */
const TYPICAL_GROUPS = 2;

/**
 * The link base on one Elasticsearch index, one document per URL (`_id` = the record id), and a
 * queue index beside it, one document per queue, that selection walks (queue-store.ts). Reads by
 * id are realtime; writes are conditional on the sequence number read, so concurrent writers in any
 * number of processes lose nothing; searches see what the RefreshGate made visible.
 */
class ElasticsearchLinkBase implements LinkBase {
  private readonly gate: RefreshGate;
  private readonly rotation = new QueueRotation();
  private readonly control: LinkControlStore;
  private readonly queues: QueueStore;
  /** The versions the last findDue read: the lease that follows writes against them without reading first. */
  private lastDue = new Map<string, Versioned>();
  /** Queues a findDue read that had nothing due: raised by the next findDue, after a refresh. */
  private idleQueues = new Map<string, QueueHit>();
  private closed = false;

  constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly node: string,
    refreshMinIntervalMs: number,
    private readonly log: Logger,
  ) {
    this.control = new LinkControlStore(client, controlIndexName(index));
    this.queues = new QueueStore(client, index, node, () => this.gate.wrote());
    this.gate = new RefreshGate(
      () =>
        this.call('refresh', () => this.client.indices.refresh({ index: [this.index, this.queues.index] })).then(
          () => undefined,
        ),
      refreshMinIntervalMs,
    );
  }

  async insertNew(records: LinkRecord[]): Promise<string[]> {
    this.assertOpen();
    const ops = records.map((doc): BulkOp => ({ id: doc.id, action: { create: { _id: doc.id } }, doc }));
    const created: string[] = [];
    await inPool(chunk(ops, BULK_CHUNK), BULK_CONCURRENCY, async (part) => {
      const statuses = await this.bulk('insertNew', part);
      // 409: the id is known already, which is what insertNew is for.
      for (const [i, op] of part.entries()) if (statuses[i] !== 409) created.push(op.id);
      // Known ids too: a retry of a call whose queue write failed finds its records known already.
      await this.queues.lowerFor(part.map((op) => op.doc));
    });
    return created;
  }

  async getMany(ids: string[]): Promise<Map<string, LinkRecord>> {
    this.assertOpen();
    const out = new Map<string, LinkRecord>();
    await inPool(chunk([...new Set(ids)], BULK_CHUNK), BULK_CONCURRENCY, async (part) => {
      for (const [id, versioned] of await this.read('getMany', part)) out.set(id, versioned.record);
    });
    return out;
  }

  async update(ids: string[], mutate: LinkMutation): Promise<LinkRecord[]> {
    const written = await this.compareAndSet('update', ids, mutate);
    await this.queues.lowerFor(written);
    return written;
  }

  /**
   * Walks the queue index, not the URLs: a page of queues due by now in rotation order, then their
   * due URLs in one search. The work is the queues and URLs read, whatever the backlog.
   */
  async findDue(query: DueQuery): Promise<LinkRecord[]> {
    this.assertOpen();
    await this.gate.awaitVisible();
    const idle = [...this.idleQueues.values()];
    this.idleQueues = new Map();
    await this.queues.raise(idle, query.now);
    const perGroup = Math.min(query.perQueueLimit, query.limit, MAX_PER_QUEUE);
    const seen = new Map<string, Versioned>();
    const filter = { excludeQueues: query.exclude?.queues, partitions: query.partitions };
    const fetchPage = async (page: QueuePageRequest): Promise<QueueBatch[]> => {
      const queues = await this.queues.page(query.now, page, filter);
      if (queues.length === 0) return [];
      const keys = queues.map((queue) => queue.doc.queueKey);
      const response = await this.call('findDue', () =>
        this.client.search<LinkRecord, DueAggregations>(
          dueUrlsRequest(this.index, query.now, keys, perGroup, query.exclude?.jobs),
        ),
      );
      const buckets = new Map((response.aggregations?.queues.buckets ?? []).map((bucket) => [bucket.key, bucket.open]));
      return queues.map((queue) => {
        const bucket = buckets.get(queue.doc.queueKey);
        if (!bucket) this.idleQueues.set(queue.doc.queueKey, queue);
        const groups = bucket ? [bucket.discovery, ...bucket.recrawl.classes.buckets] : [];
        return {
          queueKey: queue.doc.queueKey,
          records: groups.flatMap((byClass) =>
            byClass.levels.buckets.flatMap((group) =>
              group.due.hits.hits.map((hit) => {
                const record = withPartition(hit._source);
                seen.set(record.id, { record, seqNo: hit._seq_no, primaryTerm: hit._primary_term });
                return record;
              }),
            ),
          ),
        };
      });
    };
    const due = await this.rotation.take(fetchPage, query.limit, perGroup * TYPICAL_GROUPS);
    this.lastDue = seen;
    // The raise must search after a refresh that began after these queues were read.
    if (this.idleQueues.size > 0) this.gate.wrote();
    return due;
  }

  lease(ids: string[], until: number, now: number): Promise<LinkRecord[]> {
    const mutate: LinkMutation = (current) =>
      // A lease makes URLs due later, never sooner: their queues need no lowering.
      // A lease at or before now ran out without an answer: counted, so a poison URL stops eventually.
      isDue(current, now)
        ? { ...current, leaseUntil: until, leaseExpiries: current.leaseExpiries + (current.leaseUntil > 0 ? 1 : 0) }
        : null;
    return this.compareAndSet('lease', ids, mutate, this.lastDue);
  }

  async findLeased(query: LeasedQuery): Promise<LinkRecord[]> {
    this.assertOpen();
    await this.gate.awaitVisible();
    const response = await this.call('findLeased', () =>
      this.client.search<LinkRecord>(leasedRequest(this.index, query)),
    );
    return response.hits.hits.map((hit) => withPartition(hit._source!));
  }

  getCounters(name: string): Promise<SharedCounters> {
    this.assertOpen();
    return this.call('getCounters', () => this.control.getCounters(name));
  }

  updateCounters(name: string, mutate: (current: SharedCounters) => SharedCounters | null): Promise<SharedCounters> {
    this.assertOpen();
    return this.call('updateCounters', () => this.control.updateCounters(name, mutate));
  }

  async stats(now: number, options: { due?: boolean } = {}): Promise<LinkBaseStats> {
    this.assertOpen();
    await this.gate.awaitVisible();
    const response = await this.call('stats', () =>
      this.client.search<LinkRecord, StatsAggregations>(statsRequest(this.index, now, options.due === true)),
    );
    return readStats(response, options.due === true);
  }

  getControl(): Promise<LinkBaseControl> {
    this.assertOpen();
    return this.call('getControl', () => this.control.get());
  }

  putControl(control: LinkBaseControl): Promise<void> {
    this.assertOpen();
    return this.call('putControl', () => this.control.put(control));
  }

  /** Every record as of the call, in pages over a point in time, so writes meanwhile neither repeat nor skip records. */
  async *scan(): AsyncIterable<LinkRecord> {
    this.assertOpen();
    await this.gate.awaitVisible();
    let pit = (
      await this.call('scan', () => this.client.openPointInTime({ index: this.index, keep_alive: SCAN_KEEP_ALIVE }))
    ).id;
    try {
      let after: estypes.SortResults | undefined;
      for (;;) {
        const request: estypes.SearchRequest = {
          pit: { id: pit, keep_alive: SCAN_KEEP_ALIVE },
          size: SCAN_PAGE,
          sort: [{ _shard_doc: 'asc' }],
          track_total_hits: false,
          ...(after ? { search_after: after } : {}),
        };
        const page = await this.call('scan', () => this.client.search<LinkRecord>(request));
        pit = page.pit_id ?? pit;
        for (const hit of page.hits.hits) yield withPartition(hit._source!);
        if (page.hits.hits.length < SCAN_PAGE) return;
        after = page.hits.hits.at(-1)!.sort;
      }
    } finally {
      // The point in time expires by itself; a failed close only keeps it a little longer.
      await this.client
        .closePointInTime({ id: pit })
        .catch((error: unknown) =>
          this.log.warn(
            { err: toBackendError(error, 'scan', this.index, this.node).message },
            'could not close the point in time of a scan',
          ),
        );
    }
  }

  /** Acknowledged writes are durable already (translog); a refresh makes them visible to every search. */
  async flush(): Promise<void> {
    this.assertOpen();
    await this.gate.refreshNow();
  }

  /** Queue documents for the URLs of a link base written before the queue index existed. */
  backfillQueues(): Promise<number> {
    return backfillQueues(this.client, this.index, (queues) => this.queues.lower(queues));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }

  /**
   * Read-modify-write per record: read with its sequence number, write only if it is unchanged,
   * and read again the records another writer changed meanwhile. The mutation may run more than
   * once for a record; only its last result is stored. Versions in `known` stand in for the first
   * read and are used up: one that is out of date costs a 409 and a read, never a wrong write.
   */
  private async compareAndSet(
    operation: string,
    ids: string[],
    mutate: LinkMutation,
    known?: Map<string, Versioned>,
  ): Promise<LinkRecord[]> {
    this.assertOpen();
    const unique = [...new Set(ids)];
    const written = new Map<string, LinkRecord>();
    await inPool(chunk(unique, BULK_CHUNK), BULK_CONCURRENCY, async (part) => {
      let pending = part;
      for (let attempt = 1; pending.length > 0; attempt++) {
        if (attempt > MAX_CAS_ATTEMPTS) {
          throw new BackendError(
            `elasticsearch ${operation} on index ${this.index}: ${pending.length} record(s) changed by other writers ${MAX_CAS_ATTEMPTS} times in a row; try again`,
          );
        }
        // Full jitter: writers that collided do not collide again in step.
        if (attempt > 1) await sleep(Math.random() * Math.min(100, 2 ** attempt));
        const current =
          attempt === 1 && known
            ? await this.readKnown(operation, pending, known)
            : await this.read(operation, pending);
        const ops: BulkOp[] = [];
        for (const id of pending) {
          const stored = current.get(id);
          if (!stored) continue;
          const next = mutate(stored.record);
          if (!next || next === stored.record) continue;
          ops.push({
            id,
            action: { index: { _id: id, if_seq_no: stored.seqNo, if_primary_term: stored.primaryTerm } },
            doc: next,
          });
        }
        const statuses = ops.length > 0 ? await this.bulk(operation, ops) : [];
        pending = [];
        for (const [i, op] of ops.entries()) {
          if (statuses[i] === 409) pending.push(op.id);
          else written.set(op.id, op.doc);
        }
      }
    });
    return unique.filter((id) => written.has(id)).map((id) => written.get(id)!);
  }

  private async readKnown(
    operation: string,
    ids: string[],
    known: Map<string, Versioned>,
  ): Promise<Map<string, Versioned>> {
    const out = await this.read(
      operation,
      ids.filter((id) => !known.has(id)),
    );
    for (const id of ids) {
      const versioned = known.get(id);
      if (!versioned) continue;
      out.set(id, versioned);
      known.delete(id);
    }
    return out;
  }

  /** Realtime multi-get with sequence numbers; unknown ids are left out. */
  private async read(operation: string, ids: string[]): Promise<Map<string, Versioned>> {
    const out = new Map<string, Versioned>();
    if (ids.length === 0) return out;
    const response = await this.call(operation, () => this.client.mget<LinkRecord>({ index: this.index, ids }));
    for (const doc of response.docs) {
      if ('error' in doc)
        throw new BackendError(
          `elasticsearch ${operation} on index ${this.index}: reading ${doc._id} failed: ${doc.error.type}: ${doc.error.reason ?? ''}`,
        );
      if (doc.found && doc._source)
        out.set(doc._id, { record: withPartition(doc._source), seqNo: doc._seq_no!, primaryTerm: doc._primary_term! });
    }
    return out;
  }

  /**
   * One bulk request; returns each item's status in order. Items the cluster turned away for load
   * (429) are sent again after a pause; 409 is the caller's to read; anything else fails the call
   * with every failed item listed.
   */
  private async bulk(operation: string, ops: BulkOp[]): Promise<number[]> {
    // The client resends a request that timed out; a conditional write that was applied would then
    // answer 409 and be applied twice by the compare-and-set loop, so the caller decides instead.
    const conditional = ops.some((op) => 'index' in op.action);
    const statuses = new Array<number>(ops.length);
    let todo = ops.map((_, i) => i);
    for (let round = 0; ; round++) {
      const operations = todo.flatMap((i) => [ops[i]!.action, ops[i]!.doc]);
      let response: estypes.BulkResponse;
      try {
        response = await this.call(operation, () =>
          this.client.bulk({ index: this.index, operations }, { maxRetries: conditional ? 0 : undefined }),
        );
      } finally {
        this.gate.wrote();
      }
      const failures: BulkFailure[] = [];
      const overloaded: number[] = [];
      response.items.forEach((entry, position) => {
        const i = todo[position]!;
        const item = Object.values(entry)[0]!;
        statuses[i] = item.status;
        if (item.status < 300 || item.status === 409) return;
        if (item.status === 429 && round < MAX_BULK_RETRIES) overloaded.push(i);
        else
          failures.push({
            id: ops[i]!.id,
            status: item.status,
            type: item.error?.type ?? 'unknown',
            reason: item.error?.reason ?? '',
          });
      });
      if (failures.length > 0) throw new BulkItemsError(operation, this.index, failures);
      if (overloaded.length === 0) return statuses;
      this.log.warn({ operation, items: overloaded.length, round }, 'cluster write queue full; sending items again');
      todo = overloaded;
      await sleep(100 * 2 ** round);
    }
  }

  private async call<T>(operation: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw toBackendError(error, operation, this.index, this.node);
    }
  }

  private assertOpen(): void {
    if (this.closed)
      throw new BackendError(`the link base on index ${this.index} is closed`, { code: ErrorCode.BACKEND_REFUSED });
  }
}

/**
 * Connects to the cluster, installs the index template and creates the index if missing (both
 * idempotent), and returns the link base on it. Fails with a BackendError naming the node (without
 * credentials) when the cluster cannot be reached.
 */
export async function createElasticsearchLinkBase(config: ElasticsearchConfig, logger: Logger): Promise<LinkBase> {
  const node = redactUrl(config.url);
  const log = logger.child({ component: 'elasticsearch-linkbase', index: config.index });
  const client = createElasticsearchClient(config);
  let linkbase: ElasticsearchLinkBase;
  try {
    const created = await installLinkIndex(client, config);
    const queuesCreated = await installQueueIndex(client, config);
    log.info(
      { node, created, refreshMinIntervalMs: config.refreshMinIntervalMs },
      created ? 'link base index created' : 'link base index found',
    );
    linkbase = new ElasticsearchLinkBase(client, config.index, node, config.refreshMinIntervalMs, log);
    if (queuesCreated && !created) {
      const queues = await linkbase.backfillQueues();
      log.info({ queues }, 'queue index built from the link base');
    }
  } catch (error) {
    await client.close();
    throw toBackendError(error, 'install', config.index, node);
  }
  return linkbase;
}

/**
 * Documents written before records carried their partition get it on read, and keep it from their
 * next write on. Until written, a partitions filter does not find them: such a link base is served
 * by one scheduler (which asks for no filter) until its records were updated.
 */
function withPartition(record: LinkRecord): LinkRecord {
  return record.partition === undefined ? { ...record, partition: linkPartition(record.queueKey) } : record;
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `work` over items, `concurrency` at a time; waits for every started task before it throws the first error. */
async function inPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  const rejected = results.find((result) => result.status === 'rejected');
  if (rejected) throw (rejected as PromiseRejectedResult).reason;
}
