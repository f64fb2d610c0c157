import { ConfigError, loadRuntimeConfig } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { checkHealthPortClash } from './health-port-clash.js';

const runtime = (env: NodeJS.ProcessEnv = {}) => loadRuntimeConfig({ env });

describe('health port clash', () => {
  it.each([
    ['http://127.0.0.1:8080', {}],
    ['http://localhost:8080/hbase', {}],
    ['http://[::1]:8080', {}],
    ['http://127.0.0.1:9000', { CRAWLER_HEALTH_PORT: '9000', CRAWLER_HEALTH_HOST: '127.0.0.1' }],
    ['http://127.0.0.1', { CRAWLER_HEALTH_PORT: '80' }],
  ])('refuses %s when the health server listens there too', (url, env) => {
    expect(() => checkHealthPortClash(runtime(env), 'hbase', 'HBASE_REST_URL', url)).toThrow(ConfigError);
    expect(() => checkHealthPortClash(runtime(env), 'hbase', 'HBASE_REST_URL', url)).toThrow(
      /HBASE_REST_URL points at port \d+ .*CRAWLER_HEALTH_PORT/,
    );
  });

  it.each([
    ['http://hbase-rest:8080', {}],
    ['http://127.0.0.1:18080', {}],
    ['https://127.0.0.1', { CRAWLER_HEALTH_PORT: '80' }],
    ['http://127.0.0.1:8080', { CRAWLER_HEALTH_PORT: '0' }],
    ['http://127.0.0.1:8080', { CRAWLER_HEALTH_HOST: '10.1.2.3' }],
  ])('lets %s pass when it cannot reach the health server', (url, env) => {
    expect(() => checkHealthPortClash(runtime(env), 'hbase', 'HBASE_REST_URL', url)).not.toThrow();
  });

  it('never prints the URL, which may carry a password', () => {
    let message = '';
    try {
      checkHealthPortClash(runtime(), 'hbase', 'HBASE_REST_URL', 'http://user:hunter2@127.0.0.1:8080');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('HBASE_REST_URL');
    expect(message).not.toContain('hunter2');
  });
});
