import {
  errorMessage,
  registrableDomain,
  type FootprintWindow,
  type Logger,
  type PaceGrant,
  type PaceRequest,
  type PaceStep,
  type PacingStore,
} from '@crawler/core';
import { SiteBudgets, type SiteBudget } from './site-budgets.js';

const NAMESPACE = 'pace';
export const FOOTPRINT_NAMESPACE = 'footprint';

/** The site a request counts against, besides its politeness queue. */
export interface SiteTurn {
  site: string;
  budget: SiteBudget;
  kind: 'page' | 'attachment';
  /** Our egress network, for the footprint. */
  network: string;
}

interface Pending {
  request: PaceRequest;
  resolve(grant: PaceGrant): void;
  reject(error: unknown): void;
}

/**
 * The politeness queues' timing and the sites' budgets, blocks and footprint, shared by every
 * fetcher through the fingerprint store (Redis in distributed mode): each request reserves its
 * slot there, so a queue's spacing and a site's budget hold across processes, and for a host
 * that moves to another fetcher on a rebalance. Reservations made in one tick go in one call
 * (one round trip per node). What a request's end adds (a slow answer's stretch, a Retry-After,
 * a back-off) is written only when it pushes the queue further than its reservation did. A
 * request's queue and site keys carry one hash tag (the registrable domain, or the address of an
 * IP queue), so on a Redis Cluster they are reserved in one atomic call.
 */
export class SharedPacing {
  private batch: Pending[] = [];
  private readonly writes = new Set<Promise<void>>();
  private lastWarning = 0;

  constructor(
    private readonly store: PacingStore,
    private readonly logger: Logger,
    private readonly options: { onCounted?(site: SiteTurn, grant: PaceGrant): void } = {},
  ) {}

  /** The next slot of the queue (and of the site), at most `maxWaitMs` away; rejects when the store cannot answer. */
  reserve(queueKey: string, spacingMs: number, maxWaitMs: number, site: SiteTurn | null = null): Promise<PaceGrant> {
    const steps: PaceStep[] = [{ namespace: NAMESPACE, key: queueKeyOf(queueKey), spacingMs }];
    // The site's step comes last: its footprint is kept beside it.
    if (site)
      steps.push({
        namespace: NAMESPACE,
        key: siteKeyOf(site.site),
        spacingMs: site.kind === 'page' ? site.budget.meanIntervalMs : 0,
        limits: SiteBudgets.limitsOf(site.budget),
      });
    const request: PaceRequest = {
      steps,
      maxWaitMs,
      ...(site
        ? { footprint: { namespace: FOOTPRINT_NAMESPACE, site: site.site, network: site.network, kind: site.kind } }
        : {}),
    };
    const reserved = new Promise<PaceGrant>((resolve, reject) => {
      if (this.batch.length === 0) setImmediate(() => this.send());
      this.batch.push({ request, resolve, reject });
    });
    return site && this.options.onCounted
      ? reserved.then((grant) => {
          if (grant.reserved) this.options.onCounted!(site, grant);
          return grant;
        })
      : reserved;
  }

  /** No slot of the queue before `holdMs` from now; `busyStreak` is its back-off streak. */
  hold(queueKey: string, holdMs: number, busyStreak: number): void {
    this.write(
      this.store.holdPace([{ namespace: NAMESPACE, key: queueKeyOf(queueKey), holdMs, busyStreak }]),
      'could not share a politeness hold',
    );
  }

  /** The site is left alone for `blockedForMs` (its `streak`-th block in a row), then probed once; null clears the block. */
  block(site: string, blockedForMs: number | null, streak: number): void {
    this.write(
      this.store.blockPace([{ namespace: NAMESPACE, key: siteKeyOf(site), blockedForMs, streak }]),
      'could not share a site block',
    );
  }

  footprint(site?: string): Promise<FootprintWindow[]> {
    return this.store.readFootprint(FOOTPRINT_NAMESPACE, site === undefined ? {} : { site });
  }

  /** Waits for writes in progress, so a stopping fetcher hands its queues over with their pauses. */
  async flush(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  /** A store failure costs sharing, not politeness: the caller spaces its own requests meanwhile. */
  warn(error: unknown, message: string): void {
    const now = Date.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.logger.warn({ err: errorMessage(error) }, `${message}; spacing by this process's own timing meanwhile`);
  }

  private write(operation: Promise<void>, failure: string): void {
    const write = operation
      .catch((error: unknown) => this.warn(error, failure))
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  private send(): void {
    const batch = this.batch;
    this.batch = [];
    this.store.pace(batch.map(({ request }) => request)).then(
      (grants) => batch.forEach((pending, i) => pending.resolve(grants[i]!)),
      (error: unknown) => {
        this.warn(error, 'shared politeness timing unavailable');
        for (const pending of batch) pending.reject(error);
      },
    );
  }
}

/** The hash tag of a queue or site: its registrable domain, or the address of an IP queue. */
function tagOf(name: string): string {
  if (name.startsWith('ip:')) return `{${name.slice(3)}}`;
  const bare = name.startsWith('domain:') ? name.slice(7) : name;
  const hostname = bare.startsWith('[') ? bare.slice(0, bare.indexOf(']') + 1) : bare.replace(/:\d+$/, '');
  return `{${registrableDomain(hostname)}}`;
}

const queueKeyOf = (queueKey: string) => `${tagOf(queueKey)}q:${queueKey}`;
const siteKeyOf = (site: string) => `${tagOf(site)}s:${site}`;
