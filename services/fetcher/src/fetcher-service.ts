import { setMaxListeners } from 'node:events';
import type { Bus, BusProducer, Codec, CrawlJob, FingerprintStore, Logger, StageObserver } from '@crawler/core';
import { jobContentTypes, StageRunner } from '@crawler/core';
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
import { createQueueKeyer } from './politeness/queue-key.js';
import { QueueStateStore } from './politeness/queue-state-store.js';
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
  gate: PolitenessGate;
  robots: RobotsCache | null;
  queueState: QueueStateStore | null;
  metrics: FetcherMetrics;
}

/** Builds what fetches a URL from config: used by the service, `crawler check fetch` and the benchmark. */
export function createFetcherParts(
  config: FetcherConfig,
  state: FingerprintStore | null,
  logger: Logger,
  options: { resolver?: Resolver } = {},
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
  const queueState = state ? new QueueStateStore(state, logger) : null;
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
    shared: queueState,
  });
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
  const deps: FetchUrlDeps = {
    client,
    gate,
    queueKeyOf: createQueueKeyer(config.queueMode, (url) =>
      policy.resolve(url.hostname, effectivePort(url.protocol, url.port)),
    ),
    robots,
    cookies: config.cookieJobs.length > 0 ? new CookieJars(new Set(config.cookieJobs), config.cookieSitesMax) : null,
    contentTypes: new ContentTypeList(config.contentTypes),
    maxBodyBytes: config.maxBodyBytes,
    maxRedirects: config.maxRedirects,
    maxCrawlDelayMs: config.maxCrawlDelayMs,
    totalTimeoutMs: config.totalTimeoutMs,
  };
  return { deps, policy, client, gate, robots, queueState, metrics };
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
  const parts = createFetcherParts(config, ports.state, log, { resolver: options.resolver });
  const stopWaiting = new AbortController();
  const abortRequests = new AbortController();
  // Every waiting URL and every request listens to these; their number is bounded by FETCHER_QUEUED_MAX.
  setMaxListeners(0, stopWaiting.signal, abortRequests.signal);
  // Rendering shares the plain fetch's client, address policy, robots cache and politeness gate.
  const renderer = createRenderer(
    config,
    {
      client: parts.client,
      policy: parts.policy,
      gate: parts.gate,
      queueKeyOf: parts.deps.queueKeyOf,
      robots: parts.robots,
    },
    ports.state,
    log,
  );
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
      await parts.queueState?.flush();
      await parts.client.close();
    },
  };
}
