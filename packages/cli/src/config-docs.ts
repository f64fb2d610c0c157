import { runtimeSettings, tracingSettings, type SettingsSpec } from '@crawler/core';
import { elasticsearchSettings } from '@crawler/elasticsearch';
import { warcSettings } from '@crawler/embedded';
import { hbaseSettings } from '@crawler/hbase';
import { kafkaSettings } from '@crawler/kafka';
import { redisSettings } from '@crawler/redis';
import { dedupSettings } from '@crawler/dedup';
import { fetcherSettings } from '@crawler/fetcher';
import { linkextractSettings } from '@crawler/linkextract';
import { schedulerSettings } from '@crawler/scheduler';

const services: [string, SettingsSpec][] = [
  ['every service (runtime)', runtimeSettings],
  ['OpenTelemetry tracing (every service)', tracingSettings],
  ['Kafka (bus)', kafkaSettings],
  ['Elasticsearch (link base: scheduler)', elasticsearchSettings],
  ['Redis (fingerprints: dedup; robots and politeness state: fetcher)', redisSettings],
  ['HBase (page store: dedup)', hbaseSettings],
  ['WARC files (page store: dedup when CRAWLER_PAGE_STORE=warc, and crawler run)', warcSettings],
  ['scheduler', schedulerSettings],
  ['fetcher', fetcherSettings],
  ['linkextract', linkextractSettings],
  ['dedup', dedupSettings],
];

/** docs/CONFIGURATION.md, generated from the settings schemas so it cannot fall behind them. */
export function configurationDoc(): string {
  const sections = services.map(([name, spec]) => {
    const rows = Object.entries(spec).map(([key, item]) => {
      const fallback = item.schema.safeParse(undefined);
      const shown = item.secret
        ? '(secret)'
        : fallback.success && fallback.data !== undefined
          ? `\`${JSON.stringify(fallback.data)}\``
          : '(none)';
      return `| \`${item.env}\` | \`${key}\` | ${shown} | ${item.doc.replace(/\|/g, '\\|')} |`;
    });
    return [`## ${name}`, '', '| variable | file key | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
  });
  return [
    '# Configuration',
    '',
    'Generated from the settings schemas by `npm run docs:config`; a test fails when this file falls behind them.',
    '',
    'Each service reads its settings once at start, in this order (later wins): default, the JSON file named by',
    '`CRAWLER_CONFIG` (keys as in the "file key" column, at the top level or under the service name), the',
    'environment variable, and command-line flags of `crawler run`. A bad value stops the service with a message',
    'naming the variable, the value and the rule. Settings marked secret are never printed. A standalone service',
    'checks all of its settings before it listens or connects; `crawler-<service> --help` (or',
    '`node services/<service>/dist/main.js --help`) lists the groups it reads.',
    '',
    '```json',
    '{ "fetcher": { "concurrency": 100, "minDelayMs": 2000 }, "scheduler": { "leaseMs": 300000 } }',
    '```',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}
