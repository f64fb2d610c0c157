import type { Client } from '@elastic/elasticsearch';
import { EMPTY_CONTROL, type LinkBaseControl } from '@crawler/core';
import { responseCause } from './elasticsearch-errors.js';

const CONTROL_ID = 'control';

/** The index beside the link base that holds its control document (paused jobs and queues, jobs added at run time). */
export function controlIndexName(index: string): string {
  return `${index}-control`;
}

/**
 * The operator state of a link base, one document in an index of its own (the link base's mapping
 * is strict and holds records only). The index is created on the first write, so a crawl that never
 * pauses anything leaves no second index behind.
 */
export class LinkControlStore {
  constructor(
    private readonly client: Client,
    private readonly index: string,
  ) {}

  async get(): Promise<LinkBaseControl> {
    try {
      const doc = await this.client.get<{ control: LinkBaseControl }>({ index: this.index, id: CONTROL_ID });
      return { ...EMPTY_CONTROL, ...doc._source?.control };
    } catch (error) {
      if (
        responseCause(error).type === 'index_not_found_exception' ||
        (error as { meta?: { statusCode?: number } }).meta?.statusCode === 404
      )
        return EMPTY_CONTROL;
      throw error;
    }
  }

  /** Writes are rare (an operator's command), so each one makes sure the index exists first. */
  async put(control: LinkBaseControl): Promise<void> {
    await this.create();
    await this.client.index({ index: this.index, id: CONTROL_ID, document: { control }, refresh: 'wait_for' });
  }

  /** Created explicitly, not by the write: auto-creation would map the jobs' JSON field by field. */
  private async create(): Promise<void> {
    try {
      await this.client.indices.create({
        index: this.index,
        settings: { number_of_shards: 1 },
        mappings: { dynamic: 'strict', properties: { control: { type: 'object', enabled: false } } },
      });
    } catch (error) {
      if (responseCause(error).type !== 'resource_already_exists_exception') throw error;
    }
  }
}
