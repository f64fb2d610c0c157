import { createBus, createLinkBase } from '@crawler/adapters';
import { BatchingProducer, catalogGroups, Codec, createMetricsRegistry, createStageMetrics, createStoreMetrics, instrumentProducer, loadCrawlJob, registerGroupMetrics, registerLinkBaseMetrics, type Logger, type RunningService, type RuntimeConfig } from '@crawler/core';
import { loadSchedulerConfig } from './config.js';
import { createSchedulerService } from './scheduler-service.js';

/** Composition root of the scheduler: the link base, the bus and the crawl job. */
export async function composeScheduler(runtime: RuntimeConfig, logger: Logger, env: NodeJS.ProcessEnv = process.env): Promise<RunningService> {
  const config = loadSchedulerConfig({ env });
  const job = loadCrawlJob(config.jobFile);
  const registry = createMetricsRegistry('scheduler');
  const linkbase = createStoreMetrics(registry).instrument(await createLinkBase(runtime, logger, { env }), 'linkbase');
  const bus = await createBus(runtime, logger, { env });
  const producer = new BatchingProducer(instrumentProducer(bus.producer(), registry), { lingerMs: 5, maxBatchBytes: 1_000_000 });
  const service = await createSchedulerService(config, job, { bus, producer, codec: new Codec(), linkbase }, logger, { topicPrefix: runtime.topicPrefix, observer: createStageMetrics(registry) });
  registerGroupMetrics(registry, { bus, groups: catalogGroups(runtime.topicPrefix), logger });
  registerLinkBaseMetrics(registry, linkbase, logger);
  await service.start();
  return {
    metrics: () => registry.metrics(),
    details: () => ({ inFlight: service.emitter.inFlightCount, emitted: service.emitter.emitted, discovered: service.counters.discovered, outcomes: Object.fromEntries(service.counters.outcomes) }),
    async stop() {
      await service.stop();
      await producer.close();
      await linkbase.close();
      await bus.close();
    },
  };
}
