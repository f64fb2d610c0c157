import { ConfigError, loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';

/** Lowercase, no \ / * ? " < > | , # : or space, not starting with - _ +, not . or .. (Elasticsearch's rules). */
const INDEX_NAME = /^(?![-_+.])[a-z0-9._+-]{1,255}$/;

/** Every setting of the Elasticsearch link base, with its environment variable and default. */
export const elasticsearchSettings = {
  url: setting(
    'ELASTICSEARCH_URL',
    z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:9200'),
    'Elasticsearch node URL, http(s)://host:port.',
  ),
  username: setting(
    'ELASTICSEARCH_USERNAME',
    z.string().min(1).optional(),
    'User for basic authentication (with ELASTICSEARCH_PASSWORD).',
  ),
  password: setting('ELASTICSEARCH_PASSWORD', z.string().min(1).optional(), 'Password for basic authentication.', {
    secret: true,
  }),
  apiKey: setting(
    'ELASTICSEARCH_API_KEY',
    z.string().min(1).optional(),
    'API key (the base64 "id:key" form); used instead of user and password.',
    { secret: true },
  ),
  index: setting(
    'ELASTICSEARCH_INDEX',
    z
      .string()
      .regex(INDEX_NAME, 'lowercase letters, digits, . _ - +, not starting with - _ + or .')
      .default('crawler-links'),
    'Index holding the link base; an index template of the same name is installed for it.',
  ),
  shards: setting(
    'ELASTICSEARCH_SHARDS',
    z.number().int().min(1).max(1024).default(1),
    'Primary shards of the link base index (only when the index is created).',
  ),
  replicas: setting('ELASTICSEARCH_REPLICAS', z.number().int().min(0).max(16).default(0), 'Replicas of each shard.'),
  requestTimeoutMs: setting(
    'ELASTICSEARCH_REQUEST_TIMEOUT_MS',
    z.number().int().min(100).default(30_000),
    'How long one request to the cluster may take before it fails (and is retried by the client).',
  ),
  refreshMinIntervalMs: setting(
    'ELASTICSEARCH_REFRESH_MIN_INTERVAL_MS',
    z.number().int().min(0).max(60_000).default(250),
    'Least time between two refreshes made to show this process its own writes before findDue/stats/scan; a read that needs a refresh waits for it.',
  ),
};

export type ElasticsearchConfig = ConfigOf<typeof elasticsearchSettings>;

/** Parses the settings once, at start; a password without a user fails here rather than at the first request. */
export function loadElasticsearchConfig(options?: LoadOptions): ElasticsearchConfig {
  const config = loadConfig('elasticsearch', elasticsearchSettings, options);
  if (config.password !== undefined && config.username === undefined) {
    throw new ConfigError(
      'elasticsearch: ELASTICSEARCH_PASSWORD is set but ELASTICSEARCH_USERNAME is not; set both, or use ELASTICSEARCH_API_KEY.',
    );
  }
  if (config.username !== undefined && config.password === undefined) {
    throw new ConfigError(
      'elasticsearch: ELASTICSEARCH_USERNAME is set but ELASTICSEARCH_PASSWORD is not; set both, or use ELASTICSEARCH_API_KEY.',
    );
  }
  return config;
}
