import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@elastic/elasticsearch';
import { BackendError, EMPTY_CONTROL, type LinkBaseControl, type SharedCounters } from '@crawler/core';
import { responseCause } from './elasticsearch-errors.js';

const CONTROL_ID = 'control';
/** Writers that keep colliding on one counters document give up after this many rounds (retriable). */
const MAX_COUNTER_ATTEMPTS = 50;
const CONTROL_MAPPINGS = {
  dynamic: 'strict',
  properties: { control: { type: 'object', enabled: false }, counters: { type: 'object', enabled: false } },
} as const;

/** The index beside the link base that holds its control document (paused jobs and queues, jobs added at run time). */
export function controlIndexName(index: string): string {
  return `${index}-control`;
}

/**
 * The operator state of a link base, one document in an index of its own (the link base's mapping
 * is strict and holds records only), and its shared counters, one document per name. The index is
 * created on the first write, so a crawl that never pauses anything leaves no second index behind.
 */
export class LinkControlStore {
  private created: Promise<void> | null = null;

  constructor(
    private readonly client: Client,
    private readonly index: string,
  ) {}

  async get(): Promise<LinkBaseControl> {
    const doc = await this.read<{ control: LinkBaseControl }>(CONTROL_ID);
    return { ...EMPTY_CONTROL, ...doc?._source?.control };
  }

  /** Writes are rare (an operator's command), so each one makes sure the index exists first. */
  async put(control: LinkBaseControl): Promise<void> {
    await this.create();
    await this.client.index({ index: this.index, id: CONTROL_ID, document: { control }, refresh: 'wait_for' });
  }

  async getCounters(name: string): Promise<SharedCounters> {
    return { ...(await this.read<{ counters: SharedCounters }>(countersId(name)))?._source?.counters };
  }

  /** Compare-and-set on the document's sequence number: a writer that lost the race reads again. */
  async updateCounters(
    name: string,
    mutate: (current: SharedCounters) => SharedCounters | null,
  ): Promise<SharedCounters> {
    await this.create();
    const id = countersId(name);
    for (let attempt = 1; attempt <= MAX_COUNTER_ATTEMPTS; attempt++) {
      // Full jitter: writers that collided do not collide again in step.
      if (attempt > 1) await sleep(Math.random() * Math.min(100, 2 ** attempt));
      const doc = await this.read<{ counters: SharedCounters }>(id);
      const current = { ...doc?._source?.counters };
      const next = mutate({ ...current });
      if (!next) return current;
      const condition = doc
        ? { if_seq_no: doc._seq_no!, if_primary_term: doc._primary_term! }
        : { op_type: 'create' as const };
      try {
        await this.client.index({ index: this.index, id, document: { counters: next }, ...condition });
        return { ...next };
      } catch (error) {
        if ((error as { meta?: { statusCode?: number } }).meta?.statusCode !== 409) throw error;
      }
    }
    throw new BackendError(
      `elasticsearch updateCounters on index ${this.index}: counters ${name} changed by other writers ${MAX_COUNTER_ATTEMPTS} times in a row; try again`,
    );
  }

  /** A realtime get; null when the document or the index does not exist yet. */
  private async read<T>(id: string) {
    try {
      return await this.client.get<T>({ index: this.index, id });
    } catch (error) {
      if (
        responseCause(error).type === 'index_not_found_exception' ||
        (error as { meta?: { statusCode?: number } }).meta?.statusCode === 404
      )
        return null;
      // Another scheduler has just created the index and its shard is not started yet.
      if (responseCause(error).type !== 'no_shard_available_action_exception') throw error;
      await this.client.cluster.health({ index: this.index, wait_for_status: 'yellow', timeout: '30s' });
      return await this.client.get<T>({ index: this.index, id });
    }
  }

  /**
   * Created explicitly, not by the write: auto-creation would map the jobs' JSON field by field.
   * An index made before the counters existed gets their field added.
   */
  private create(): Promise<void> {
    this.created ??= (async () => {
      try {
        await this.client.indices.create({
          index: this.index,
          settings: { number_of_shards: 1 },
          mappings: CONTROL_MAPPINGS,
        });
      } catch (error) {
        if (responseCause(error).type !== 'resource_already_exists_exception') throw error;
        await this.client.indices.putMapping({ index: this.index, ...CONTROL_MAPPINGS });
      }
    })().catch((error: unknown) => {
      this.created = null;
      throw error;
    });
    return this.created;
  }
}

function countersId(name: string): string {
  return `counters-${name}`;
}
