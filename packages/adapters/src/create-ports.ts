import { join } from 'node:path';
import type { Bus, FingerprintStore, LinkBase, Logger, PageStore, RuntimeConfig } from '@crawler/core';
import { loadCatalog, prefixTopics } from '@crawler/core';
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
 * as the catalog does; on Kafka the bus puts CRAWLER_TOPIC_PREFIX before them (prefixTopics). An
 * in-process bus is the crawl's alone and needs none.
 */
export async function createBus(runtime: RuntimeConfig, logger: Logger, options: PortOptions = {}): Promise<Bus> {
  const bus =
    runtime.bus === 'kafka'
      ? prefixTopics(createKafkaBus(loadKafkaConfig({ env: options.env }), logger), runtime.topicPrefix)
      : (options.embeddedBus ?? new InProcessBus());
  await bus.createTopics(loadCatalog().topics);
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
  if (runtime.pageStore === 'hbase') return createHbasePageStore(loadHbaseConfig({ env: options.env }), logger);
  return WarcPageStore.open(join(runtime.dataDir, 'warc'), {
    ...loadWarcConfig({ env: options.env }),
    readOnly: options.readOnly,
  });
}
