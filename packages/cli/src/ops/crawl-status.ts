import {
  assessWorkers,
  brokerName,
  catalogGroups,
  Codec,
  DEFAULT_STALL_AFTER_MS,
  Schemas,
  Topics,
  type Bus,
  type LinkBase,
  type StatusUpdate,
  type WorkerState,
} from '@crawler/core';
import { outcomeClass } from '@crawler/fetcher';
import type { Following, RecentRecords } from '@crawler/kafka';
import { describeGroups, groupReport } from './group-report.js';
import { OutcomeWindow } from './outcome-window.js';

export interface StatusSnapshot {
  at: number;
  topicPrefix: string;
  /** With a job filter: that job's URLs in the link base; errors and answers are then the job's alone. */
  job: { id: string; known: number; visited: number } | null;
  linkbase: { known: number; due: number | null; leased: number; byStatus: Record<string, number> };
  /** Records per second over the window, from the topics' offsets. */
  rates: { windowSeconds: number; fetchedPerSecond: number; storedPerSecond: number; answeredPerSecond: number };
  /** Outcome classes other than ok, redirect and not_modified on crawl.status in the window. */
  errors: { windowSeconds: number; answers: number; byClass: Record<string, number> };
  groups: { group: string; state: string; members: number; lag: number }[];
  workers: (Omit<WorkerState, 'partitions'> & { partitions: { topic: string; partition: number }[] })[];
}

export interface CrawlStatusOptions {
  bus: Bus;
  linkbase: LinkBase;
  recent: RecentRecords;
  windowMs?: number;
  stallAfterMs?: number;
  /** Only this job's crawl.status answers, and its URLs beside the link base's totals. */
  job?: string;
  now?: () => number;
}

/** Newest crawl.status records read per partition when following starts: enough for a minute of a busy crawl. */
const MAX_STATUS_PER_PARTITION = 5_000;

/**
 * The crawl's state on one screen, from what the services leave behind: the link base (URLs
 * known, due, leased), the topics (throughput by offsets, error classes from crawl.status) and the
 * consumer groups (lag, workers). Kept between snapshots: the outcome window and when each
 * member was first seen, for stall detection of members that never committed.
 */
export class CrawlStatus {
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly window: OutcomeWindow;
  private readonly firstSeen = new Map<string, number>();
  private readonly codec = new Codec();
  private following: Following | null = null;

  constructor(private readonly options: CrawlStatusOptions) {
    this.windowMs = options.windowMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.window = new OutcomeWindow(this.windowMs);
  }

  /** Reads crawl.status of the last window and keeps following it; resolves once caught up. */
  async start(): Promise<void> {
    this.following = await this.options.recent.follow(
      this.topic(Topics.status),
      this.now() - this.windowMs,
      MAX_STATUS_PER_PARTITION,
      (record) => {
        try {
          const status = this.codec.decode<StatusUpdate>(record.value, Schemas.StatusUpdate);
          if (this.options.job !== undefined && status.jobId !== this.options.job) return;
          this.window.add(
            record.timestamp,
            outcomeClass({ outcome: status.outcome, errorCode: status.errorCode ?? undefined }),
          );
        } catch {
          // Undecodable records are the dead-letter topic's business, not this screen's.
        }
      },
    );
    await this.following.caughtUp;
  }

  async snapshot(): Promise<StatusSnapshot> {
    const at = this.now();
    const since = at - this.windowMs;
    const { bus, linkbase, recent } = this.options;
    const [stats, descriptions, fetched, stored, answered] = await Promise.all([
      linkbase.stats(at, { due: true }),
      describeGroups(bus, catalogGroups()),
      recent.countSince(this.topic(Topics.fetched), since),
      recent.countSince(this.topic(Topics.pages), since),
      recent.countSince(this.topic(Topics.status), since),
    ]);
    const members = new Set(
      descriptions.flatMap((description) => description.members.map((member) => member.memberId)),
    );
    for (const id of this.firstSeen.keys()) if (!members.has(id)) this.firstSeen.delete(id);
    for (const id of members) if (!this.firstSeen.has(id)) this.firstSeen.set(id, at);
    const seconds = this.windowMs / 1000;
    const outcomes = this.window.counts(at);
    const { job } = this.options;
    return {
      at,
      // What the bus puts before every name: CRAWLER_TOPIC_PREFIX.
      topicPrefix: brokerName(bus, ''),
      job:
        job === undefined
          ? null
          : { id: job, known: stats.byJob[job]?.total ?? 0, visited: stats.byJob[job]?.visited ?? 0 },
      linkbase: { known: stats.total, due: stats.due, leased: stats.leased, byStatus: stats.byStatus },
      rates: {
        windowSeconds: seconds,
        fetchedPerSecond: fetched / seconds,
        storedPerSecond: stored / seconds,
        // A job's answers are counted from its records; the topics' offsets count every job's.
        answeredPerSecond: (job === undefined ? answered : outcomes.answers) / seconds,
      },
      errors: { windowSeconds: seconds, answers: outcomes.answers, byClass: outcomes.errors },
      groups: descriptions
        .map(groupReport)
        .map(({ group, state, members: count, lag }) => ({ group, state, members: count, lag })),
      workers: descriptions.flatMap((description) =>
        assessWorkers(description, at, this.options.stallAfterMs ?? DEFAULT_STALL_AFTER_MS, this.firstSeen),
      ),
    };
  }

  async stop(): Promise<void> {
    await this.following?.stop();
    this.following = null;
  }

  /** Recent records are read from Kafka itself, under the broker's name of the topic. */
  private topic(name: string): string {
    return brokerName(this.options.bus, name);
  }
}
