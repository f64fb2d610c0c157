import { ConfigError, describeSettings } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { parseClusterNode, parseRedisUrl } from './redis-connection.js';
import { loadRedisConfig, redisSettings } from './redis-settings.js';

describe('loadRedisConfig', () => {
  it('has defaults for the local server', () => {
    expect(loadRedisConfig({ env: {} })).toEqual({
      url: 'redis://127.0.0.1:6379',
      clusterNodes: [],
      password: undefined,
      username: undefined,
      tls: false,
      keyPrefix: 'crawler:',
      commandTimeoutMs: 5000,
    });
  });

  it('reads every variable', () => {
    const config = loadRedisConfig({
      env: {
        REDIS_URL: 'rediss://cache.internal:6380/2',
        REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7000,[::1]:7001',
        REDIS_PASSWORD: 'pw',
        REDIS_USERNAME: 'crawler',
        REDIS_TLS: 'true',
        REDIS_KEY_PREFIX: 'job42:',
        REDIS_COMMAND_TIMEOUT_MS: '250',
      },
    });
    expect(config).toMatchObject({
      clusterNodes: ['10.0.0.1:7000', '10.0.0.2:7000', '[::1]:7001'],
      password: 'pw',
      username: 'crawler',
      tls: true,
      keyPrefix: 'job42:',
      commandTimeoutMs: 250,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('says how to fix a bad value', () => {
    expect(() => loadRedisConfig({ env: { REDIS_CLUSTER_NODES: '10.0.0.1' } })).toThrow(
      /REDIS_CLUSTER_NODES .*host:port/,
    );
    expect(() => loadRedisConfig({ env: { REDIS_KEY_PREFIX: 'crawl{1}:' } })).toThrow(
      /REDIS_KEY_PREFIX .*one cluster slot/,
    );
    expect(() => loadRedisConfig({ env: { REDIS_COMMAND_TIMEOUT_MS: 'soon' } })).toThrow(ConfigError);
    expect(() => loadRedisConfig({ env: { REDIS_URL: 'http://127.0.0.1:6379' } })).toThrow(/REDIS_URL .*redis:\/\//);
  });

  it('never prints the password, in REDIS_URL or REDIS_PASSWORD', () => {
    const message = (env: Record<string, string>) => {
      try {
        loadRedisConfig({ env });
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected a ConfigError');
    };
    expect(message({ REDIS_URL: 'redis://u:hunter2@ host:1' })).not.toContain('hunter2');
    expect(message({ REDIS_URL: 'redis://u:hunter2@ host:1' })).toContain('(hidden)');
    expect(message({ REDIS_PASSWORD: '', REDIS_URL: 'ftp://u:hunter2@host' })).not.toContain('hunter2');
    expect(describeSettings(redisSettings).join('\n')).toContain('REDIS_PASSWORD');
  });
});

describe('parseRedisUrl', () => {
  it('splits a URL into endpoint and credentials', () => {
    expect(parseRedisUrl('redis://127.0.0.1:16379')).toEqual({ host: '127.0.0.1', port: 16379, db: 0, tls: false });
    expect(parseRedisUrl('rediss://user:p%40ss%3Aw@cache.internal/3')).toEqual({
      host: 'cache.internal',
      port: 6379,
      username: 'user',
      password: 'p@ss:w',
      db: 3,
      tls: true,
    });
    expect(parseRedisUrl('redis://:only-password@[::1]:7000')).toEqual({
      host: '::1',
      port: 7000,
      password: 'only-password',
      db: 0,
      tls: false,
    });
  });

  it('rejects what it cannot use without repeating the URL', () => {
    expect(() => parseRedisUrl('redis://u:hunter2@host:port')).toThrow(ConfigError);
    expect(() => parseRedisUrl('redis://u:hunter2@host:port')).not.toThrow(/hunter2/);
    expect(() => parseRedisUrl('redis://host:6379/cache')).toThrow(/database number/);
  });

  it('reads cluster nodes, IPv6 included', () => {
    expect(parseClusterNode('10.0.0.1:7000')).toEqual({ host: '10.0.0.1', port: 7000 });
    expect(parseClusterNode('[::1]:7001')).toEqual({ host: '::1', port: 7001 });
  });
});
