import type { Bus, BusProducer, Codec, Logger, StageObserver } from '@crawler/core';
import { StageRunner } from '@crawler/core';
import { AddressPolicy, type Resolver } from './address-policy.js';
import type { FetcherConfig } from './config.js';
import { createFetcherStage } from './fetcher-stage.js';
import { HttpClient } from './http-client.js';
import { PolitenessGate } from './politeness-gate.js';
import { RobotsCache } from './robots/robots-cache.js';

export interface FetcherPorts {
  bus: Bus;
  producer: BusProducer;
  codec: Codec;
}

export interface FetcherService {
  runner: StageRunner<unknown>;
  stage: ReturnType<typeof createFetcherStage>;
  gate: PolitenessGate;
  robots: RobotsCache | null;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Wires the fetcher from its config and ports; main.ts and `crawler run` both use this. */
export function createFetcherService(config: FetcherConfig, ports: FetcherPorts, logger: Logger, options: { topicPrefix?: string; resolver?: Resolver; observer?: StageObserver } = {}): FetcherService {
  const log = logger.child({ component: 'fetcher' });
  const policy = new AddressPolicy(config.allowAddresses, options.resolver);
  const client = new HttpClient({
    policy,
    userAgent: config.userAgent,
    connectTimeoutMs: config.connectTimeoutMs,
    headersTimeoutMs: config.headersTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs,
    connectionsPerOrigin: Math.max(config.perHostConcurrency, 1),
  });
  const gate = new PolitenessGate({ globalConcurrency: config.concurrency, perQueueConcurrency: config.perHostConcurrency, minDelayMs: config.minDelayMs });
  const robots = config.obeyRobots
    ? new RobotsCache({ client, productToken: config.robotsAgent, ttlMs: config.robotsTtlMs, errorTtlMs: config.robotsErrorTtlMs, timeoutMs: Math.min(config.totalTimeoutMs, 30_000), logger: log })
    : null;
  const stopping = new AbortController();
  const stage = createFetcherStage({
    deps: {
      client,
      gate,
      robots,
      contentTypes: new Set(config.contentTypes),
      maxBodyBytes: config.maxBodyBytes,
      maxRedirects: config.maxRedirects,
      maxCrawlDelayMs: config.maxCrawlDelayMs,
      maxRetryAfterMs: config.maxRetryAfterMs,
      totalTimeoutMs: config.totalTimeoutMs,
    },
    bodyCompression: config.bodyCompression,
    stopSignal: stopping.signal,
  });
  const runner = new StageRunner({
    stage,
    bus: ports.bus,
    codec: ports.codec,
    producer: ports.producer,
    groupId: 'fetcher',
    logger: log,
    concurrency: config.queuedMax,
    topicPrefix: options.topicPrefix,
    observer: options.observer,
    // A fetch that outlives the drain is aborted and handed back: its URL's lease makes it due again.
    drainTimeoutMs: 5_000,
  });
  return {
    runner: runner as StageRunner<unknown>,
    stage,
    gate,
    robots,
    start: () => runner.start(),
    async stop() {
      const stopped = runner.stop();
      setTimeout(() => stopping.abort(), 4_000).unref();
      await stopped;
      await client.close();
    },
  };
}
