import { createBus, createFingerprintStore, createPageStore } from '@crawler/adapters';
import {
  BatchingProducer,
  Codec,
  createMetricsRegistry,
  createStageMetrics,
  createStoreMetrics,
  instrumentProducer,
  registerGroupMetrics,
  type Logger,
  type RunningService,
  type RuntimeConfig,
} from '@crawler/core';
import { loadDedupConfig } from './config.js';
import { createDedupMetrics } from './dedup-metrics.js';
import { createDedupService } from './dedup-service.js';

/** Composition root of a standalone dedup worker. */
export async function composeDedup(
  runtime: RuntimeConfig,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningService> {
  const config = loadDedupConfig({ env });
  const registry = createMetricsRegistry('dedup');
  const stores = createStoreMetrics(registry);
  const fingerprints = stores.instrument(await createFingerprintStore(runtime, logger, { env }), 'fingerprints');
  const pages = stores.instrument(await createPageStore(runtime, logger, { env }), 'pages');
  const bus = await createBus(runtime, logger, { env });
  const producer = new BatchingProducer(instrumentProducer(bus, registry), {
    lingerMs: 5,
    maxBatchBytes: 1_000_000,
  });
  const service = createDedupService(config, { bus, producer, codec: new Codec(), fingerprints, pages }, logger, {
    observer: createStageMetrics(registry),
    metrics: createDedupMetrics(registry),
  });
  registerGroupMetrics(registry, { bus, logger });
  await service.start();
  return {
    metrics: () => registry.metrics(),
    details: () => ({
      processed: service.runner.processed,
      inFlight: service.runner.busy,
      decisions: Object.fromEntries(service.stage.decisions),
    }),
    async stop() {
      await service.stop();
      await producer.close();
      await pages.close();
      await fingerprints.close();
      await bus.close();
    },
  };
}
