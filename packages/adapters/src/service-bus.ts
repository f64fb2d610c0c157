import {
  BatchingProducer,
  Codec,
  createStageMetrics,
  instrumentProducer,
  registerGroupMetrics,
  type Bus,
  type BusProducer,
  type createMetricsRegistry,
  type Logger,
  type RuntimeConfig,
  type StageObserver,
} from '@crawler/core';
import { createBus } from './create-ports.js';

/** What a standalone service sends and receives with, and how its stage runners are counted. */
export interface ServiceBus {
  /** The ports every service gets: the crawl's bus, the producer and the codec. */
  ports: { bus: Bus; producer: BusProducer; codec: Codec };
  observer: StageObserver;
  /** Flushes the producer and leaves the bus; after the service stopped. */
  close(): Promise<void>;
}

/**
 * A standalone service's side of the bus, the same for all four: the crawl's bus, a producer that
 * batches for 5 ms and counts what it sends, the stage runners' metrics, and every consumer
 * group's lag and workers on the service's /metrics.
 */
export async function createServiceBus(
  runtime: RuntimeConfig,
  registry: ReturnType<typeof createMetricsRegistry>,
  logger: Logger,
  env: NodeJS.ProcessEnv,
): Promise<ServiceBus> {
  const bus = await createBus(runtime, logger, { env });
  const producer = new BatchingProducer(instrumentProducer(bus, registry), { lingerMs: 5, maxBatchBytes: 1_000_000 });
  registerGroupMetrics(registry, { bus, logger });
  return {
    ports: { bus, producer, codec: new Codec() },
    observer: createStageMetrics(registry),
    async close() {
      await producer.close();
      await bus.close();
    },
  };
}
