import { z } from 'zod';
import { loadConfig, setting, type ConfigOf, type LoadOptions } from '../config/define-config.js';

/** Which adapter serves each port, and where a standalone service listens: shared by every service. */
export const runtimeSettings = {
  bus: setting(
    'CRAWLER_BUS',
    z.enum(['kafka', 'embedded']).default('kafka'),
    'Message bus: kafka, or embedded (in-process; only meaningful when all services share one process).',
  ),
  linkbase: setting(
    'CRAWLER_LINKBASE',
    z.enum(['elasticsearch', 'file']).default('elasticsearch'),
    'Link base (scheduler): elasticsearch, or file (a folder under CRAWLER_DATA_DIR).',
  ),
  fingerprints: setting(
    'CRAWLER_FINGERPRINTS',
    z.enum(['redis', 'memory']).default('redis'),
    'Fingerprint store (dedup): redis, or memory (in-process, kept in a folder under CRAWLER_DATA_DIR).',
  ),
  pageStore: setting(
    'CRAWLER_PAGE_STORE',
    z.enum(['hbase', 'warc']).default('hbase'),
    'Page store (dedup): hbase, or warc (files under CRAWLER_DATA_DIR).',
  ),
  dataDir: setting(
    'CRAWLER_DATA_DIR',
    z.string().min(1).default('crawl-data'),
    'Folder for the file link base, the in-process fingerprint store and WARC files.',
  ),
  topicPrefix: setting(
    'CRAWLER_TOPIC_PREFIX',
    z
      .string()
      .regex(/^[A-Za-z0-9._-]*$/, 'letters, digits, dot, dash, underscore')
      .default(''),
    'Prefix of every topic and consumer group name on Kafka, to run several crawls on one cluster.',
  ),
  healthPort: setting(
    'CRAWLER_HEALTH_PORT',
    z.number().int().min(0).max(65535).default(8080),
    'Port of /healthz and /readyz (0 picks a free port).',
  ),
  healthHost: setting(
    'CRAWLER_HEALTH_HOST',
    z.string().min(1).default('0.0.0.0'),
    'Address the health endpoints listen on.',
  ),
  heapGrowingPercent: setting(
    'CRAWLER_HEAP_GROWING_PERCENT',
    z.number().int().min(0).max(300).default(50),
    'How far the one-process crawl (crawler run, crawler demo) lets its JavaScript heap grow past what survived the last full garbage collection, in percent; lower keeps memory down at some CPU, 0 leaves it to V8 (up to 300).',
  ),
  logLevel: setting(
    'LOG_LEVEL',
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    'Log level.',
  ),
};

export type RuntimeConfig = ConfigOf<typeof runtimeSettings>;

export function loadRuntimeConfig(options?: LoadOptions): RuntimeConfig {
  return loadConfig('runtime', runtimeSettings, options);
}
