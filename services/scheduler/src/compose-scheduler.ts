import { createLinkBase, createServiceBus } from '@crawler/adapters';
import {
  createMetricsRegistry,
  createStoreMetrics,
  loadCrawlJob,
  registerLinkBaseMetrics,
  type Logger,
  type RunningService,
  type RuntimeConfig,
} from '@crawler/core';
import { startAdminServer, type RunningAdminServer } from './admin/admin-server.js';
import { loadSchedulerConfig } from './config.js';
import { registerSchedulerMetrics } from './scheduler-metrics.js';
import { createSchedulerService } from './scheduler-service.js';

/** Composition root of the scheduler: the link base, the bus, the crawl job, and the admin API when a token is set. */
export async function composeScheduler(
  runtime: RuntimeConfig,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningService> {
  const config = loadSchedulerConfig({ env });
  const job = loadCrawlJob(config.jobFile);
  const registry = createMetricsRegistry('scheduler');
  const linkbase = createStoreMetrics(registry).instrument(await createLinkBase(runtime, logger, { env }), 'linkbase');
  const wire = await createServiceBus(runtime, registry, logger, env);
  const service = await createSchedulerService(config, job, { ...wire.ports, linkbase }, logger, {
    observer: wire.observer,
  });
  registerLinkBaseMetrics(registry, linkbase, logger);
  registerSchedulerMetrics(registry, service.gauges);
  await service.start();
  let adminServer: RunningAdminServer | null = null;
  if (config.adminToken)
    adminServer = await startAdminServer(
      service.admin,
      { token: config.adminToken, port: config.adminPort, host: config.adminHost },
      logger,
    );
  else logger.info({ component: 'scheduler' }, 'admin API off: SCHEDULER_ADMIN_TOKEN is not set');
  return {
    metrics: () => registry.metrics(),
    details: () => ({
      inFlight: service.emitter.inFlightCount,
      // The crawl.status partitions whose hosts this scheduler owns (claimed, epoch checked).
      partitions: service.ownership.owned,
      emitted: service.emitter.emitted,
      discovered: service.counters.discovered,
      outcomes: Object.fromEntries(service.counters.outcomes),
    }),
    async stop() {
      await adminServer?.close();
      await service.stop();
      await wire.close();
      await linkbase.close();
    },
  };
}
