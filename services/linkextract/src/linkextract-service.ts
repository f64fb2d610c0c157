import type { Bus, BusProducer, Codec, CrawlJob, Logger, StageObserver } from '@crawler/core';
import { StageRunner } from '@crawler/core';
import { extractLimitsOf, type LinkextractConfig } from './config.js';
import type { FrameFetcher } from './frame-splicing.js';
import { createLinkextractStage } from './linkextract-stage.js';

export interface LinkextractPorts {
  bus: Bus;
  producer: BusProducer;
  codec: Codec;
}

/** Wires link extraction from its config, the crawl job and ports. */
export function createLinkextractService(
  config: LinkextractConfig,
  job: CrawlJob,
  ports: LinkextractPorts,
  logger: Logger,
  options: { topicPrefix?: string; observer?: StageObserver; frames?: FrameFetcher } = {},
) {
  const log = logger.child({ component: 'linkextract' });
  const stage = createLinkextractStage({
    job,
    logger: log,
    limits: extractLimitsOf(config),
    followNofollow: config.followNofollow,
    maxInputBytes: config.maxInputBytes,
    frames: options.frames,
    robotsAgent: config.robotsAgent,
  });
  const runner = new StageRunner({
    stage,
    bus: ports.bus,
    codec: ports.codec,
    producer: ports.producer,
    groupId: 'linkextract',
    logger: log,
    concurrency: config.concurrency,
    topicPrefix: options.topicPrefix,
    observer: options.observer,
  });
  return { stage, runner, start: () => runner.start(), stop: () => runner.stop() };
}

export type LinkextractService = ReturnType<typeof createLinkextractService>;
