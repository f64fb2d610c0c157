import { setMaxListeners } from 'node:events';
import type { Bus, BusProducer, Codec, CrawlJob, FingerprintStore, Logger, StageObserver } from '@crawler/core';
import { jobContentTypes, loadCrawlJob, StageRunner } from '@crawler/core';
import { AddressPolicy, effectivePort, type Resolver } from './address-policy.js';
import { fetchDocument, type FetchedDocument } from './fetch-document.js';
import { robotsTokenOf, type FetcherConfig } from './config.js';
import { ContentTypeList } from './content-type-list.js';
import { CookieJars } from './cookie-jars.js';
import { FetcherMetrics } from './fetcher-metrics.js';
import { createFetcherStage } from './fetcher-stage.js';
import type { FetchUrlDeps } from './fetch-url.js';
import { HttpClient } from './http-client.js';
import { PolitenessGate } from './politeness/politeness-gate.js';
import { PoliteRequests } from './politeness/polite-request.js';
import { createQueueKeyer } from './politeness/queue-key.js';
import { SiteBlocks } from './blocks/site-blocks.js';
import { EgressNetwork } from './politeness/egress-network.js';
import { SharedPacing } from './politeness/shared-pacing.js';
import { SiteBudgets } from './politeness/site-budgets.js';
import { SiteHolds } from './politeness/site-holds.js';
import { createRenderer } from './render/create-renderer.js';
import type { Renderer } from './render/renderer.js';
import { RobotsCache } from './robots/robots-cache.js';

export interface FetcherPorts {
  bus: Bus;
  producer: BusProducer;
  codec: Codec;
  /** Shared robots.txt records and per-queue politeness timing (Redis in distributed mode). */
  state: FingerprintStore;
}

export interface FetcherService {
  runner: StageRunner<unknown>;
  stage: ReturnType<typeof createFetcherStage>;
  gate: PolitenessGate;
  robots: RobotsCache | null;
  metrics: FetcherMetrics;
  /** Sites left alone for a while: blocked, or out of budget. */
  holds: SiteHolds;
  /** The politeness slots, site budgets, blocks and footprint shared with other fetchers; null without a store. */
  pacing: SharedPacing | null;
  /** Null unless rendering is on (FETCHER_RENDER or the job's rendering.enabled). */
  renderer: Renderer | null;
  /** A frame or other document a page being processed needs, through this fetcher's polite path. */
  fetchDocument(url: string, jobId: string, signal: AbortSignal): Promise<FetchedDocument | null>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface FetcherParts {
  deps: FetchUrlDeps;
  policy: AddressPolicy;
  client: HttpClient;
  /** The one polite path of plain fetches, frames and rendering. */
  polite: PoliteRequests;
  gate: PolitenessGate;
  robots: RobotsCache | null;
  /** The politeness queues' slots in the shared store; null without a store. */
  pacing: SharedPacing | null;
  /** Sites left alone for a while: blocked, or out of budget. */
  holds: SiteHolds;
  metrics: FetcherMetrics;
}

/** Builds what fetches a URL from config: used by the service, `crawler check fetch` and the benchmark. */
export function createFetcherParts(
  config: FetcherConfig,
  state: FingerprintStore | null,
  logger: Logger,
  options: { resolver?: Resolver; now?: () => number; job?: CrawlJob } = {},
): FetcherParts {
  const metrics = new FetcherMetrics();
  const policy = new AddressPolicy(config.allowAddresses, options.resolver, { dnsCacheMs: config.dnsCacheMs });
  const client = new HttpClient({
    policy,
    userAgent: config.userAgent,
    connectTimeoutMs: config.connectTimeoutMs,
    headersTimeoutMs: config.headersTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs,
    connectionsPerOrigin: Math.max(config.perHostConcurrency, 1),
    proxyUrl: config.proxyUrl ?? null,
  });
  const pacing = state
    ? new SharedPacing(state, logger, {
        onCounted: (site, grant) => metrics.countFootprint(site.network, site.kind, grant.windowRequests),
      })
    : null;
  const gate = new PolitenessGate({
    globalConcurrency: config.concurrency,
    perQueueConcurrency: config.perHostConcurrency,
    minDelayMs: config.minDelayMs,
    slowDown: {
      delayFactor: config.delayFactor,
      backoffBaseMs: config.backoffBaseMs,
      maxBackoffMs: config.maxBackoffMs,
      maxRetryAfterMs: config.maxRetryAfterMs,
    },
    maxWaitingPerQueue: config.queueWaitingMax,
    maxQueueWaitMs: config.maxQueueWaitMs,
    shared: pacing,
    now: options.now,
  });
  const holds = new SiteHolds(options.now);
  const robots = config.obeyRobots
    ? new RobotsCache({
        client,
        productToken: robotsTokenOf(config),
        ttlMs: config.robotsTtlMs,
        errorTtlMs: config.robotsErrorTtlMs,
        staleMs: config.robotsStaleMs,
        timeoutMs: Math.min(config.totalTimeoutMs, 30_000),
        store: state,
        logger,
        onFetch: (record) => metrics.countRobotsFetch(record),
      })
    : null;
  const polite = new PoliteRequests({
    policy,
    robots,
    gate,
    queueKeyOf: createQueueKeyer(config.queueMode, (url) =>
      policy.resolve(url.hostname, effectivePort(url.protocol, url.port)),
    ),
    maxCrawlDelayMs: config.maxCrawlDelayMs,
    budgets: new SiteBudgets(
      {
        requestsPer10Min: config.siteRequestsPer10Min,
        requestsPerDay: config.siteRequestsPerDay,
        meanIntervalMs: config.siteMeanIntervalMs,
      },
      config.siteMode,
      // Site budget overrides: the crawl's job, else the job file's (crawler check fetch, the benches).
      options.job ?? loadCrawlJob(config.jobFile),
      config.maxCrawlDelayMs,
    ),
    holds,
    blocks: new SiteBlocks({
      backoffMs: config.blockBackoffMs,
      maxBackoffMs: config.maxBlockBackoffMs,
      holds,
      shared: pacing,
      onBlock: (site, verdict) => {
        metrics.countBlock(verdict.signal);
        logger.warn(
          { site, signal: verdict.signal, streak: verdict.streak, blockedForMs: verdict.blockedForMs },
          'site blocks the crawler: left alone, then probed once',
        );
      },
      onUnblock: (site) => logger.info({ site }, 'site no longer blocks the crawler: its probe was answered'),
    }),
    egress: new EgressNetwork(config.egressNetwork ?? null),
  });
  const deps: FetchUrlDeps = {
    client,
    polite,
    cookies: config.cookieJobs.length > 0 ? new CookieJars(new Set(config.cookieJobs), config.cookieSitesMax) : null,
    contentTypes: new ContentTypeList(config.contentTypes),
    maxBodyBytes: config.maxBodyBytes,
    maxRedirects: config.maxRedirects,
    totalTimeoutMs: config.totalTimeoutMs,
  };
  return { deps, policy, client, polite, gate, robots, pacing, holds, metrics };
}

/**
 * Wires the fetcher for a crawl job from its config and ports: the one factory of the standalone
 * service, `crawler run`, the benches and the stack tests. The job adds the content types it
 * extracts (feeds, sitemaps, plain text) to FETCHER_CONTENT_TYPES.
 */
export function createFetcherService(
  settings: FetcherConfig,
  job: CrawlJob,
  ports: FetcherPorts,
  logger: Logger,
  options: { resolver?: Resolver; observer?: StageObserver } = {},
): FetcherService {
  const config = { ...settings, contentTypes: [...new Set([...settings.contentTypes, ...jobContentTypes(job)])] };
  const log = logger.child({ component: 'fetcher' });
  const parts = createFetcherParts(config, ports.state, log, { resolver: options.resolver, job });
  const stopWaiting = new AbortController();
  const abortRequests = new AbortController();
  // Every waiting URL and every request listens to these; their number is bounded by FETCHER_QUEUED_MAX.
  setMaxListeners(0, stopWaiting.signal, abortRequests.signal);
  // Rendering shares the plain fetch's client and polite path: one address policy, robots cache and politeness gate.
  const renderer = createRenderer(config, parts, ports.state, log);
  const stage = createFetcherStage({
    deps: parts.deps,
    bodyCompression: config.bodyCompression,
    signals: { handBack: stopWaiting.signal, abort: abortRequests.signal },
    metrics: parts.metrics,
    renderer,
    logger: log,
  });
  const runner = new StageRunner({
    stage,
    bus: ports.bus,
    codec: ports.codec,
    producer: ports.producer,
    groupId: 'fetcher',
    logger: log,
    concurrency: config.queuedMax,
    observer: options.observer,
    // URLs still waiting for their queue, or fetching past the drain, are handed back: redelivered after the restart.
    drainTimeoutMs: 5_000,
  });
  return {
    runner: runner as StageRunner<unknown>,
    stage,
    gate: parts.gate,
    robots: parts.robots,
    metrics: parts.metrics,
    holds: parts.holds,
    pacing: parts.pacing,
    renderer,
    fetchDocument: (url, jobId, signal) => fetchDocument(parts.deps, url, jobId, signal),
    async start() {
      // A host name in the allow-list that does not resolve is a configuration error, found before any fetch.
      await parts.policy.ready();
      await runner.start();
    },
    async stop() {
      const stopped = runner.stop();
      // URLs waiting for their queue are handed back at once; requests in flight get most of the drain time.
      stopWaiting.abort();
      const timer = setTimeout(() => abortRequests.abort(), 4_000);
      await stopped;
      clearTimeout(timer);
      abortRequests.abort();
      await renderer?.close();
      parts.gate.close();
      await parts.pacing?.flush();
      await parts.client.close();
    },
  };
}
