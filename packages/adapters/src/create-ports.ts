import { join } from 'node:path';
import type { Bus, FingerprintStore, LinkBase, Logger, PageStore, RuntimeConfig } from '@crawler/core';
import { brokerName, loadCatalog, prefixTopics, tracePort } from '@crawler/core';
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { FileLinkBase, InProcessBus, loadWarcConfig, MemoryFingerprintStore, WarcPageStore } from '@crawler/embedded';
import { createHbasePageStore, loadHbaseConfig } from '@crawler/hbase';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { createRedisFingerprintStore, loadRedisConfig } from '@crawler/redis';

/**
 * The one place that knows every adapter. A service's composition root asks for the ports it
 * needs; which adapter serves each follows the runtime settings (CRAWLER_BUS, CRAWLER_LINKBASE,
 * CRAWLER_FINGERPRINTS, CRAWLER_PAGE_STORE), and each adapter reads its own settings.
 */
export interface PortOptions {
  env?: NodeJS.ProcessEnv;
  /** Shared in-process bus when several services run in one process on the embedded bus. */
  embeddedBus?: InProcessBus;
  /** Only to read, beside a crawl that may be running: the WARC page store cuts and writes nothing. */
  readOnly?: boolean;
}

/**
 * The crawl's bus, with every catalog topic created (idempotent). Services name topics and groups
 * as the catalog does; on Kafka the bus puts CRAWLER_TOPIC_PREFIX before them (prefixTopics), and
 * with SCHEMA_REGISTRY_URL set every topic's schema is registered too (a change the registry
 * refuses as incompatible stops the service here, before it consumes anything). An in-process bus
 * is the crawl's alone and needs no prefix.
 */
export async function createBus(runtime: RuntimeConfig, logger: Logger, options: PortOptions = {}): Promise<Bus> {
  const topics = loadCatalog().topics;
  if (runtime.bus !== 'kafka') {
    const bus = options.embeddedBus ?? new InProcessBus();
    await bus.createTopics(topics);
    return bus;
  }
  const kafka = createKafkaBus(loadKafkaConfig({ env: options.env }), logger);
  const bus = prefixTopics(kafka, runtime.topicPrefix);
  await bus.createTopics(topics);
  // Registry subjects are named after the topics as Kafka names them.
  await kafka.registerSchemas(topics.map((topic) => ({ topic: brokerName(bus, topic.name), schema: topic.value })));
  return bus;
}

export async function createLinkBase(
  runtime: RuntimeConfig,
  logger: Logger,
  options: PortOptions = {},
): Promise<LinkBase> {
  if (runtime.linkbase === 'elasticsearch')
    return createElasticsearchLinkBase(loadElasticsearchConfig({ env: options.env }), logger);
  return FileLinkBase.open(join(runtime.dataDir, 'linkbase'));
}

export async function createFingerprintStore(
  runtime: RuntimeConfig,
  logger: Logger,
  options: PortOptions = {},
): Promise<FingerprintStore> {
  if (runtime.fingerprints === 'redis')
    return createRedisFingerprintStore(loadRedisConfig({ env: options.env }), logger);
  return MemoryFingerprintStore.open(join(runtime.dataDir, 'fingerprints'));
}

export async function createPageStore(
  runtime: RuntimeConfig,
  logger: Logger,
  options: PortOptions = {},
): Promise<PageStore> {
  // Every store call is a span in the trace of the page being handled ("page-store put").
  const store =
    runtime.pageStore === 'hbase'
      ? await createHbasePageStore(loadHbaseConfig({ env: options.env }), logger)
      : await WarcPageStore.open(join(runtime.dataDir, 'warc'), {
          ...loadWarcConfig({ env: options.env }),
          readOnly: options.readOnly,
        });
  return tracePort(store, 'page-store');
}
