import { loadCatalog } from '../catalog.js';
import { describeSettings } from '../config/define-config.js';
import { tracingSettings } from '../tracing/tracing-settings.js';
import { runtimeSettings } from './runtime-settings.js';
import type { SettingsSection } from './settings-section.js';

/** The --help text of a standalone service: its topics from the catalog, how it is configured, every setting. */
export function serviceUsage(name: string, sections: readonly SettingsSection[]): string {
  const { topics, consumerGroups } = loadCatalog();
  const groups = consumerGroups
    .filter((group) => group.service === name)
    .map((group) => `${group.topics.join(', ')} (group ${group.group})`);
  const produces = topics.filter((topic) => topic.producers.includes(name)).map((topic) => topic.name);
  const all = [
    { name: 'runtime', title: 'every service (runtime)', spec: runtimeSettings },
    {
      name: 'tracing',
      title: 'OpenTelemetry tracing (every service; off unless OTEL_EXPORTER_OTLP_ENDPOINT)',
      spec: tracingSettings,
    },
    ...sections,
  ];
  return [
    `Usage: crawler-${name} [-h | --help]`,
    '',
    `The ${name} service of the crawler. Consumes ${groups.join('; ') || 'nothing'}; produces ${produces.join(', ') || 'nothing'}.`,
    'Serves /healthz, /readyz and /metrics on CRAWLER_HEALTH_PORT; SIGTERM or SIGINT stops it cleanly.',
    '',
    'Configuration: each setting is read once at start; later wins: its default, the JSON file named by',
    "CRAWLER_CONFIG (file keys as below, at the top level or under the group's section name), the",
    'environment variable. A bad value exits 2 with a message naming the variable, before anything',
    'connects. All settings: docs/CONFIGURATION.md.',
    ...all.flatMap((section) => [
      '',
      `${section.title} [section "${section.name}"]:`,
      ...describeSettings(section.spec),
    ]),
    '',
  ].join('\n');
}
