import type { Bus, BusProducer, Codec, CrawlJob, Logger, StageObserver } from '@crawler/core';
import { StageRunner } from '@crawler/core';
import { extractLimitsOf, extractWorkersOf, type LinkextractConfig } from './config.js';
import { createDocumentExtractor } from './documents/document-extractor.js';
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
  options: { observer?: StageObserver; frames?: FrameFetcher } = {},
) {
  const log = logger.child({ component: 'linkextract' });
  // A standalone extractor has no fetcher of its own: frames fetched here would bypass the
  // politeness queue of the fetcher that owns their host, so they stay ordinary links.
  if (job.extraction.spliceFrames && !options.frames)
    log.warn(
      { job: job.id },
      'the job asks for frame splicing (extraction.spliceFrames), which only crawler run does (its fetcher fetches the frames); here frames are followed as links and not spliced',
    );
  const extractor = createDocumentExtractor(extractWorkersOf(config));
  const stage = createLinkextractStage({
    job,
    logger: log,
    limits: extractLimitsOf(config),
    followNofollow: config.followNofollow,
    maxInputBytes: config.maxInputBytes,
    frames: options.frames,
    robotsAgent: config.robotsAgent,
    extractor,
  });
  const runner = new StageRunner({
    stage,
    bus: ports.bus,
    codec: ports.codec,
    producer: ports.producer,
    groupId: 'linkextract',
    logger: log,
    concurrency: config.concurrency,
    observer: options.observer,
  });
  return {
    stage,
    runner,
    extractor,
    start: () => runner.start(),
    // The runner finishes (or hands back) what it holds first: no page is cut off in a thread.
    async stop() {
      await runner.stop();
      await extractor.close();
    },
  };
}

export type LinkextractService = ReturnType<typeof createLinkextractService>;
