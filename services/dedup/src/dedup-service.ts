import type { Bus, BusProducer, Codec, FingerprintStore, Logger, PageStore, StageObserver } from '@crawler/core';
import { StageRunner } from '@crawler/core';
import type { DedupConfig } from './config.js';
import { createDedupStage } from './dedup-stage.js';

export interface DedupPorts {
  bus: Bus;
  producer: BusProducer;
  codec: Codec;
  fingerprints: FingerprintStore;
  pages: PageStore;
}

/** Wires dedup from its config and ports. */
export function createDedupService(config: DedupConfig, ports: DedupPorts, logger: Logger, options: { topicPrefix?: string; observer?: StageObserver } = {}) {
  const stage = createDedupStage({ fingerprints: ports.fingerprints, pages: ports.pages, digestAlgorithm: config.digestAlgorithm, digestTtlMs: config.digestTtlMs });
  const runner = new StageRunner({
    stage,
    bus: ports.bus,
    codec: ports.codec,
    producer: ports.producer,
    groupId: 'dedup',
    logger: logger.child({ component: 'dedup' }),
    concurrency: config.concurrency,
    topicPrefix: options.topicPrefix,
    observer: options.observer,
  });
  return { stage, runner, start: () => runner.start(), stop: () => runner.stop() };
}

export type DedupService = ReturnType<typeof createDedupService>;
