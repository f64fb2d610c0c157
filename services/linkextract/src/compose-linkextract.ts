import { createBus } from '@crawler/adapters';
import {
  BatchingProducer,
  Codec,
  createMetricsRegistry,
  createStageMetrics,
  instrumentProducer,
  loadCrawlJob,
  registerGroupMetrics,
  type Logger,
  type RunningService,
  type RuntimeConfig,
} from '@crawler/core';
import { loadLinkextractConfig } from './config.js';
import { registerLinkextractMetrics } from './linkextract-metrics.js';
import { createLinkextractService } from './linkextract-service.js';

/** Composition root of a standalone link extractor. */
export async function composeLinkextract(
  runtime: RuntimeConfig,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningService> {
  const config = loadLinkextractConfig({ env });
  const job = loadCrawlJob(config.jobFile);
  const registry = createMetricsRegistry('linkextract');
  const bus = await createBus(runtime, logger, { env });
  const producer = new BatchingProducer(instrumentProducer(bus, registry), {
    lingerMs: 5,
    maxBatchBytes: 1_000_000,
  });
  const service = createLinkextractService(config, job, { bus, producer, codec: new Codec() }, logger, {
    observer: createStageMetrics(registry),
  });
  registerLinkextractMetrics(registry, service.stage, () => service.runner.processed);
  registerGroupMetrics(registry, { bus, logger });
  await service.start();
  return {
    metrics: () => registry.metrics(),
    details: () => ({
      processed: service.runner.processed,
      inFlight: service.runner.busy,
      droppedLinks: Object.fromEntries(service.stage.dropped),
    }),
    async stop() {
      await service.stop();
      await producer.close();
      await bus.close();
    },
  };
}
