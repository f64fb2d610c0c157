import type { LinkRecord } from '@crawler/core';

/** One queue's due records, in crawl order. */
export interface QueueBatch {
  queueKey: string;
  records: LinkRecord[];
}

/** A page of the walk over queues in key order. */
export interface QueuePageRequest {
  /** Only queues whose key sorts after this one (undefined: from the first). */
  after: string | undefined;
  /** Only queues up to and including this key (the wrap-around pass stops where the round began). */
  upTo: string | undefined;
  /** Most queues in the page. */
  queues: number;
}

/** Returns the page's queues in ascending key order; fewer than asked means the walk reached the end. */
export type FetchQueuePage = (request: QueuePageRequest) => Promise<QueueBatch[]>;

/** One page's request stays bounded, whatever limit asks for: each queue costs a top-hits bucket... */
export const MAX_QUEUES_PER_PAGE = 2000;
/** ...and may bring up to perQueue records, of which the round may need far fewer. */
export const MAX_RECORDS_PER_PAGE = 10_000;

/**
 * Queues to ask for next: enough to fill what remains at the yield per queue seen so far. `perQueue`
 * is what one queue may bring (its groups' caps): the first guess, and the bound on a page's records.
 */
export function nextPageSize(remaining: number, perQueue: number, taken: number, queuesSeen: number): number {
  const perQueueYield = queuesSeen === 0 ? perQueue : Math.max(1, taken / queuesSeen);
  const bound = Math.min(MAX_QUEUES_PER_PAGE, Math.floor(MAX_RECORDS_PER_PAGE / perQueue));
  return Math.max(1, Math.min(bound, Math.ceil(remaining / perQueueYield)));
}

/**
 * Round-robin over queues: each round continues in key order after the last queue the previous
 * round took from, wraps around once, and takes what each queue brings (the page request caps it,
 * per group) until limit.
 * Every queue with due work is served within ceil(queues / queues per round) rounds, whatever its
 * size or the age of its URLs; ordering queues by their oldest due URL instead would let a few old,
 * deep backlogs fill every round.
 */
export class QueueRotation {
  private cursor: string | undefined;

  async take(fetchPage: FetchQueuePage, limit: number, perQueue: number): Promise<LinkRecord[]> {
    const out: LinkRecord[] = [];
    if (limit <= 0 || perQueue <= 0) return out;
    const start = this.cursor;
    let request: QueuePageRequest | null = { after: start, upTo: undefined, queues: 0 };
    let queuesSeen = 0;
    let last: string | undefined;
    let atEnd = false;
    while (request && out.length < limit) {
      request.queues = nextPageSize(limit - out.length, perQueue, out.length, queuesSeen);
      const page = await fetchPage(request);
      queuesSeen += page.length;
      for (const [position, batch] of page.entries()) {
        out.push(...batch.records.slice(0, limit - out.length));
        last = batch.queueKey;
        atEnd = request.upTo === undefined && page.length < request.queues && position === page.length - 1;
        if (out.length >= limit) break;
      }
      if (page.length === request.queues) request = { ...request, after: page.at(-1)!.queueKey };
      // The walk reached the last key: wrap around once, up to where this round began.
      else
        request =
          request.upTo === undefined && start !== undefined ? { after: undefined, upTo: start, queues: 0 } : null;
    }
    // After the last key, the next round starts from the first; otherwise after the last queue served.
    if (last !== undefined) this.cursor = atEnd ? undefined : last;
    return out;
  }
}
