import { createFingerprintStore, createPageStore, createServiceBus } from '@crawler/adapters';
import {
  createMetricsRegistry,
  createStoreMetrics,
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
  const wire = await createServiceBus(runtime, registry, logger, env);
  const service = createDedupService(config, { ...wire.ports, fingerprints, pages }, logger, {
    observer: wire.observer,
    metrics: createDedupMetrics(registry),
  });
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
      await wire.close();
      await pages.close();
      await fingerprints.close();
    },
  };
}
