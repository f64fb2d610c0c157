import { ConfigError, describeSettings } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { elasticsearchSettings, loadElasticsearchConfig } from './elasticsearch-settings.js';

describe('elasticsearch settings', () => {
  it('has defaults for a local single node', () => {
    expect(loadElasticsearchConfig({ env: {} })).toEqual({
      url: 'http://127.0.0.1:9200',
      username: undefined,
      password: undefined,
      apiKey: undefined,
      index: 'crawler-links',
      shards: 1,
      replicas: 0,
      requestTimeoutMs: 30_000,
      refreshMinIntervalMs: 250,
    });
  });

  it('reads every variable from the environment', () => {
    const config = loadElasticsearchConfig({
      env: {
        ELASTICSEARCH_URL: 'https://es.internal:9243',
        ELASTICSEARCH_USERNAME: 'crawler',
        ELASTICSEARCH_PASSWORD: 'pw',
        ELASTICSEARCH_API_KEY: 'a2V5',
        ELASTICSEARCH_INDEX: 'links-2026',
        ELASTICSEARCH_SHARDS: '6',
        ELASTICSEARCH_REPLICAS: '1',
        ELASTICSEARCH_REQUEST_TIMEOUT_MS: '5000',
        ELASTICSEARCH_REFRESH_MIN_INTERVAL_MS: '0',
      },
    });
    expect(config).toMatchObject({
      url: 'https://es.internal:9243',
      username: 'crawler',
      password: 'pw',
      apiKey: 'a2V5',
      index: 'links-2026',
      shards: 6,
      replicas: 1,
      requestTimeoutMs: 5000,
      refreshMinIntervalMs: 0,
    });
  });

  it('rejects index names Elasticsearch refuses, saying what a valid one looks like', () => {
    for (const index of ['Links', 'links*', '_links', '-links', 'a b', 'links/x', '.', '..']) {
      expect(() => loadElasticsearchConfig({ env: { ELASTICSEARCH_INDEX: index } }), index).toThrow(
        /ELASTICSEARCH_INDEX \(index\).*lowercase letters/,
      );
    }
    expect(loadElasticsearchConfig({ env: { ELASTICSEARCH_INDEX: 'crawl.links_v2+x-1' } }).index).toBe(
      'crawl.links_v2+x-1',
    );
  });

  it('rejects a URL that is not http(s) and counts that are out of range', () => {
    expect(() => loadElasticsearchConfig({ env: { ELASTICSEARCH_URL: '127.0.0.1:9200' } })).toThrow(
      /ELASTICSEARCH_URL/,
    );
    expect(() => loadElasticsearchConfig({ env: { ELASTICSEARCH_URL: 'ftp://es:21' } })).toThrow(/ELASTICSEARCH_URL/);
    expect(() => loadElasticsearchConfig({ env: { ELASTICSEARCH_SHARDS: '0' } })).toThrow(/ELASTICSEARCH_SHARDS/);
    expect(() => loadElasticsearchConfig({ env: { ELASTICSEARCH_REFRESH_MIN_INTERVAL_MS: '-1' } })).toThrow(
      /ELASTICSEARCH_REFRESH_MIN_INTERVAL_MS/,
    );
  });

  it('needs user and password together, and never prints a secret', () => {
    expect(() => loadElasticsearchConfig({ env: { ELASTICSEARCH_PASSWORD: 'hunter2' } })).toThrow(ConfigError);
    expect(() => loadElasticsearchConfig({ env: { ELASTICSEARCH_USERNAME: 'crawler' } })).toThrow(
      /ELASTICSEARCH_PASSWORD/,
    );
    try {
      loadElasticsearchConfig({ env: { ELASTICSEARCH_PASSWORD: 'hunter2' } });
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
    expect(() => loadElasticsearchConfig({ env: {}, overrides: { apiKey: '' } })).toThrow(/\(hidden\)/);
    expect(elasticsearchSettings.password.secret).toBe(true);
    expect(elasticsearchSettings.apiKey.secret).toBe(true);
    expect(describeSettings(elasticsearchSettings).join('\n')).toContain('ELASTICSEARCH_REFRESH_MIN_INTERVAL_MS');
  });
});
