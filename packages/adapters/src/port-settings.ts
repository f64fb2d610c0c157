import type { SettingsSection } from '@crawler/core';
import { elasticsearchSettings, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { loadWarcConfig, warcSettings } from '@crawler/embedded';
import { hbaseSettings, loadHbaseConfig } from '@crawler/hbase';
import { kafkaSettings, loadKafkaConfig } from '@crawler/kafka';
import { loadRedisConfig, redisSettings } from '@crawler/redis';
import { checkHealthPortClash } from './health-port-clash.js';

export type PortKind = 'bus' | 'linkbase' | 'fingerprints' | 'pageStore';

/** The settings of each port's adapters that have any, each group checked only when the runtime selects its adapter. */
const sections: Record<PortKind, SettingsSection[]> = {
  bus: [
    {
      name: 'kafka',
      title: 'Kafka (bus, when CRAWLER_BUS=kafka)',
      spec: kafkaSettings,
      check(runtime, env) {
        if (runtime.bus === 'kafka') loadKafkaConfig({ env });
      },
    },
  ],
  linkbase: [
    {
      name: 'elasticsearch',
      title: 'Elasticsearch (link base, when CRAWLER_LINKBASE=elasticsearch)',
      spec: elasticsearchSettings,
      check(runtime, env) {
        if (runtime.linkbase === 'elasticsearch') loadElasticsearchConfig({ env });
      },
    },
  ],
  fingerprints: [
    {
      name: 'redis',
      title: 'Redis (shared state, when CRAWLER_FINGERPRINTS=redis)',
      spec: redisSettings,
      check(runtime, env) {
        if (runtime.fingerprints === 'redis') loadRedisConfig({ env });
      },
    },
  ],
  pageStore: [
    {
      name: 'hbase',
      title: 'HBase (page store, when CRAWLER_PAGE_STORE=hbase)',
      spec: hbaseSettings,
      check(runtime, env) {
        if (runtime.pageStore !== 'hbase') return;
        checkHealthPortClash(runtime, 'hbase', 'HBASE_REST_URL', loadHbaseConfig({ env }).restUrl);
      },
    },
    {
      name: 'warc',
      title: 'WARC files (page store, when CRAWLER_PAGE_STORE=warc)',
      spec: warcSettings,
      check(runtime, env) {
        if (runtime.pageStore === 'warc') loadWarcConfig({ env });
      },
    },
  ],
};

/** The setting groups of the ports a standalone service uses, for its --help and its start-up check. */
export function portSettings(ports: readonly PortKind[]): SettingsSection[] {
  return ports.flatMap((port) => sections[port]);
}
