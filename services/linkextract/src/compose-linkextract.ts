import { createServiceBus } from '@crawler/adapters';
import {
  createMetricsRegistry,
  loadCrawlJob,
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
  const wire = await createServiceBus(runtime, registry, logger, env);
  const service = createLinkextractService(config, job, wire.ports, logger, { observer: wire.observer });
  registerLinkextractMetrics(registry, service.stage, () => service.runner.processed);
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
      await wire.close();
    },
  };
}
