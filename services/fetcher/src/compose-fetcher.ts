import { createFingerprintStore, createServiceBus } from '@crawler/adapters';
import {
  createMetricsRegistry,
  createStoreMetrics,
  loadCrawlJob,
  type Logger,
  type RunningService,
  type RuntimeConfig,
} from '@crawler/core';
import { AddressPolicy } from './address-policy.js';
import { loadFetcherConfig } from './config.js';
import { createFetcherService } from './fetcher-service.js';

/** Composition root of a standalone fetcher: settings, ports from the runtime settings, the service. */
export async function composeFetcher(
  runtime: RuntimeConfig,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningService> {
  const config = loadFetcherConfig({ env });
  // A host name of FETCHER_ALLOW_ADDRESSES that does not resolve is a bad setting: said before connecting anywhere.
  await new AddressPolicy(config.allowAddresses).ready();
  const registry = createMetricsRegistry('fetcher');
  // Robots records and per-host politeness timing live in the fingerprint store (Redis), shared by all fetchers.
  const state = createStoreMetrics(registry).instrument(
    await createFingerprintStore(runtime, logger, { env }),
    'state',
  );
  const wire = await createServiceBus(runtime, registry, logger, env);
  const service = createFetcherService(config, loadCrawlJob(config.jobFile), { ...wire.ports, state }, logger, {
    observer: wire.observer,
  });
  service.metrics.register(registry, () => {
    const depth = service.gate.depth();
    return {
      queues: depth.queues,
      waiting: depth.waiting,
      inFlight: depth.active,
      robotsCacheHits: service.robots?.hits ?? 0,
      robotsCacheMisses: service.robots?.misses ?? 0,
    };
  });
  service.renderer?.metrics.register(registry, () => service.renderer!.gauges());
  await service.start();
  return {
    metrics: () => registry.metrics(),
    details: () => ({
      processed: service.runner.processed,
      inFlight: service.runner.busy,
      outcomes: Object.fromEntries(service.metrics.outcomes),
      politeness: service.gate.depth(),
    }),
    async stop() {
      await service.stop();
      await wire.close();
      await state.close();
    },
  };
}
