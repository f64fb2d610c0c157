import {
  backoffMs,
  CrawlerError,
  ErrorCode,
  errorMessage,
  linkPartitionCount,
  sleep,
  type LinkBase,
  type Logger,
} from '@crawler/core';

/** The shared counters holding each partition's epoch: bumped by every claim, so older claims fail their checks. */
export const EPOCH_COUNTERS = 'partition-epochs';

/** A write for a partition this scheduler no longer owns: the status goes to the partition's next owner. */
export class PartitionFencedError extends CrawlerError {
  constructor(partition: number) {
    super(
      ErrorCode.SCHEDULER_PARTITION_FENCED,
      `crawl.status partition ${partition} is no longer this scheduler's (another scheduler claimed it)`,
    );
  }
}

export interface OwnershipListener {
  /** Partitions claimed: rebuild what is in flight for them from the link base. */
  gained(partitions: number[]): Promise<void>;
  /** Partitions given up: forget what was in flight for them. */
  lost(partitions: number[]): void;
}

/**
 * Which hosts this scheduler owns: those of the crawl.status partitions its consumer holds (statuses
 * are keyed by queue, and every link record carries its queue's partition). Holding a partition
 * is not enough to write for it: on assignment the scheduler bumps the partition's epoch in the
 * link base (compare-and-set, shared by every scheduler) and checks before every lease and update
 * write that the epoch is still its own. A scheduler that lost a partition without noticing (a
 * long pause, a lost session) finds a newer epoch and stops writing for it; a URL stays leased by
 * at most one scheduler, as a lease is itself a compare-and-set on a due record.
 */
export class PartitionOwnership {
  /** Partitions claimed, with the epoch of the claim. */
  private readonly epochs = new Map<number, number>();
  /** Partitions the bus assigned, claimed or not yet. */
  private readonly assigned = new Set<number>();
  private claiming: Promise<void> = Promise.resolve();
  private listener: OwnershipListener | null = null;
  private readonly log: Logger;

  constructor(
    private readonly linkbase: LinkBase,
    logger: Logger,
    readonly count: number = linkPartitionCount(),
  ) {
    this.log = logger.child({ component: 'partition-ownership' });
  }

  listen(listener: OwnershipListener): void {
    this.listener = listener;
  }

  owns(partition: number): boolean {
    return this.epochs.has(partition);
  }

  get owned(): number[] {
    return [...this.epochs.keys()].sort((a, b) => a - b);
  }

  /** The partitions findDue is limited to: undefined when this scheduler owns all of them, so a lone scheduler pays no filter. */
  get filter(): number[] | undefined {
    return this.epochs.size === this.count ? undefined : this.owned;
  }

  /** The bus assigned partitions: they are claimed in the order assignments came, retried while a store is down. */
  assign(partitions: number[]): void {
    for (const partition of partitions) this.assigned.add(partition);
    this.claiming = this.claiming.then(() => this.claim(partitions));
  }

  /** The bus takes partitions away: no more writes for them once a claim in progress ended. */
  async revoke(partitions: number[]): Promise<void> {
    for (const partition of partitions) this.assigned.delete(partition);
    await this.claiming;
    this.drop(partitions.filter((partition) => this.epochs.has(partition)));
  }

  /** Fails with PartitionFencedError unless this scheduler owns the partition (after the claims in progress). */
  async assertOwned(partition: number): Promise<void> {
    await this.claiming;
    if (!this.owns(partition)) throw new PartitionFencedError(partition);
  }

  /**
   * Reads the epochs in the link base and gives up every partition another scheduler claimed
   * since this one did: called before each lease and update write.
   */
  async verify(): Promise<void> {
    if (this.epochs.size === 0) return;
    const stored = await this.linkbase.getCounters(EPOCH_COUNTERS);
    const lost = [...this.epochs]
      .filter(([partition, epoch]) => stored[String(partition)] !== epoch)
      .map(([partition]) => partition);
    if (lost.length === 0) return;
    this.log.warn({ partitions: lost }, 'another scheduler claimed these partitions: writing no more for them');
    this.drop(lost);
  }

  private async claim(partitions: number[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const wanted = partitions.filter((partition) => this.assigned.has(partition));
      if (wanted.length === 0) return;
      try {
        const stored = await this.linkbase.updateCounters(EPOCH_COUNTERS, (current) => {
          const next = { ...current };
          for (const partition of wanted) next[String(partition)] = (current[String(partition)] ?? 0) + 1;
          return next;
        });
        const claimed = wanted.filter((partition) => this.assigned.has(partition));
        for (const partition of claimed) this.epochs.set(partition, stored[String(partition)]!);
        this.log.info(
          { partitions: claimed, epochs: claimed.map((partition) => stored[String(partition)]) },
          'claimed crawl.status partitions',
        );
        await this.listener?.gained(claimed);
        return;
      } catch (error) {
        this.log.warn({ attempt, err: errorMessage(error) }, 'claiming partitions failed; trying again');
        await sleep(backoffMs(attempt, 500, 10_000));
      }
    }
  }

  private drop(partitions: number[]): void {
    if (partitions.length === 0) return;
    for (const partition of partitions) this.epochs.delete(partition);
    this.listener?.lost(partitions);
  }
}
