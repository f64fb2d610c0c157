import type { Bus, BusProducer, Codec, FingerprintStore, Logger, PageStore, StageObserver } from '@crawler/core';
import { StageRunner } from '@crawler/core';
import type { DedupConfig } from './config.js';
import type { DedupMetrics } from './dedup-metrics.js';
import { createDedupStage } from './dedup-stage.js';
import { createJudge } from './judge/create-judge.js';

export interface DedupPorts {
  bus: Bus;
  producer: BusProducer;
  codec: Codec;
  fingerprints: FingerprintStore;
  pages: PageStore;
}

/** Wires dedup from its config and ports; the judge is built (its rule file read) here, at start. */
export function createDedupService(
  config: DedupConfig,
  ports: DedupPorts,
  logger: Logger,
  options: { observer?: StageObserver; metrics?: DedupMetrics } = {},
) {
  const log = logger.child({ component: 'dedup' });
  const judge = createJudge(config);
  const stage = createDedupStage({
    fingerprints: ports.fingerprints,
    pages: ports.pages,
    settings: config,
    judge,
    metrics: options.metrics,
    logger: log,
  });
  const runner = new StageRunner({
    stage,
    bus: ports.bus,
    codec: ports.codec,
    producer: ports.producer,
    groupId: 'dedup',
    logger: log,
    concurrency: config.concurrency,
    observer: options.observer,
  });
  return {
    stage,
    runner,
    start: () => runner.start(),
    async stop() {
      await runner.stop();
      await judge?.close?.();
    },
  };
}

export type DedupService = ReturnType<typeof createDedupService>;
