import { ConfigError, describeSettings } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { hbaseSettings, loadHbaseConfig } from './hbase-settings.js';

describe('HBase settings', () => {
  it('has the documented defaults', () => {
    expect(loadHbaseConfig({ env: {} })).toEqual({
      zookeeperQuorum: '127.0.0.1:2181',
      restUrl: 'http://127.0.0.1:8080',
      table: 'crawler_pages',
      maxVersions: 10,
      compressMinBytes: 4096,
      maxCellBytes: 10 * 1024 * 1024,
      maxRequestBytes: 8 * 1024 * 1024,
      requestTimeoutMs: 30_000,
    });
  });

  it('reads the environment and freezes the result', () => {
    const config = loadHbaseConfig({
      env: {
        HBASE_ZOOKEEPER_QUORUM: 'zk1:2181,zk2:2181',
        HBASE_REST_URL: 'https://rest.example:8443/hbase',
        HBASE_TABLE: 'crawl:pages',
        HBASE_MAX_VERSIONS: '3',
        HBASE_COMPRESS_MIN_BYTES: '0',
      },
    });
    expect(config).toMatchObject({
      zookeeperQuorum: 'zk1:2181,zk2:2181',
      restUrl: 'https://rest.example:8443/hbase',
      table: 'crawl:pages',
      maxVersions: 3,
      compressMinBytes: 0,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    ['HBASE_MAX_VERSIONS', '0'],
    ['HBASE_MAX_VERSIONS', 'ten'],
    ['HBASE_COMPRESS_MIN_BYTES', '-1'],
    ['HBASE_TABLE', 'bad table'],
    ['HBASE_TABLE', '-pages'],
    ['HBASE_ZOOKEEPER_QUORUM', 'zk1'],
    ['HBASE_REST_URL', 'hbase-rest:8080'],
    ['HBASE_REQUEST_TIMEOUT_MS', '10'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadHbaseConfig({ env: { [name]: value } })).toThrow(ConfigError);
    expect(() => loadHbaseConfig({ env: { [name]: value } })).toThrow(name);
  });

  it('never prints the REST URL, which may carry a password', () => {
    let message = '';
    try {
      loadHbaseConfig({ env: { HBASE_REST_URL: 'ftp://user:hunter2@rest:8080' } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('HBASE_REST_URL');
    expect(message).not.toContain('hunter2');
    expect(describeSettings(hbaseSettings).join('\n')).not.toMatch(/\(default "http/);
  });
});
