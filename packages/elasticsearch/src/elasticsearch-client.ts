import { Client } from '@elastic/elasticsearch';
import type { ElasticsearchConfig } from './elasticsearch-settings.js';

/** The client for the configured node: API key first, else user and password, else none. */
export function createElasticsearchClient(
  config: Pick<ElasticsearchConfig, 'url' | 'username' | 'password' | 'apiKey' | 'requestTimeoutMs'>,
): Client {
  const auth = config.apiKey
    ? { apiKey: config.apiKey }
    : config.username && config.password
      ? { username: config.username, password: config.password }
      : undefined;
  return new Client({ node: config.url, requestTimeout: config.requestTimeoutMs, ...(auth ? { auth } : {}) });
}
