import { loadConfig, runtimeSettings, tracingSettings, type SettingsSpec } from '@crawler/core';
import { elasticsearchSettings } from '@crawler/elasticsearch';
import { warcSettings } from '@crawler/embedded';
import { hbaseSettings } from '@crawler/hbase';
import { kafkaSettings } from '@crawler/kafka';
import { redisSettings } from '@crawler/redis';
import { dedupSettings } from '@crawler/dedup';
import { fetcherSettings } from '@crawler/fetcher';
import { linkextractSettings } from '@crawler/linkextract';
import { schedulerSettings } from '@crawler/scheduler';

/** Every group of settings: its section in the CRAWLER_CONFIG file, its heading in the docs, its schema. */
export const settingGroups: readonly [section: string, title: string, spec: SettingsSpec][] = [
  ['runtime', 'every service (runtime)', runtimeSettings],
  ['tracing', 'OpenTelemetry tracing (every service)', tracingSettings],
  ['kafka', 'Kafka (bus)', kafkaSettings],
  ['elasticsearch', 'Elasticsearch (link base: scheduler)', elasticsearchSettings],
  ['redis', 'Redis (fingerprints: dedup; robots and politeness state: fetcher)', redisSettings],
  ['hbase', 'HBase (page store: dedup)', hbaseSettings],
  ['warc', 'WARC files (page store: dedup when CRAWLER_PAGE_STORE=warc, and crawler run)', warcSettings],
  ['scheduler', 'scheduler', schedulerSettings],
  ['fetcher', 'fetcher', fetcherSettings],
  ['linkextract', 'linkextract', linkextractSettings],
  ['dedup', 'dedup', dedupSettings],
];

/**
 * Checks every setting the environment and the CRAWLER_CONFIG file give, whichever the command
 * reads: a bad value or an unknown key stops any command before it does anything, naming it.
 */
export function checkSettings(env: NodeJS.ProcessEnv): void {
  for (const [section, , spec] of settingGroups) loadConfig(section, spec, { env });
}
