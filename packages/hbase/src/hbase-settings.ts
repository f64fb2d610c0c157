import { loadConfig, setting, type ConfigOf, type LoadOptions } from '@crawler/core';
import { z } from 'zod';

const hostPorts = z
  .string()
  .regex(/^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, 'expected host:port[,host:port...], e.g. zk1:2181,zk2:2181');
// HBase's own rule: [namespace:]qualifier, letters, digits, _ . - and no leading dot or dash.
const tableName = z
  .string()
  .regex(
    /^([A-Za-z0-9_][A-Za-z0-9_.-]*:)?[A-Za-z0-9_][A-Za-z0-9_.-]*$/,
    'expected an HBase table name, [namespace:]name with letters, digits, _ . -',
  );

/** Every HBase setting, with its environment variable and default. */
export const hbaseSettings = {
  zookeeperQuorum: setting(
    'HBASE_ZOOKEEPER_QUORUM',
    hostPorts.default('127.0.0.1:2181'),
    'ZooKeeper quorum of the cluster, for native-RPC clients (the benchmark compares against one); the page store itself goes through the REST gateway.',
  ),
  // Secret because a gateway behind a proxy may take user:password@ in the URL.
  restUrl: setting(
    'HBASE_REST_URL',
    z
      .string()
      .regex(
        /^https?:\/\/[^\s/]+(\/[^\s]*)?$/,
        'expected http(s)://host:port of the HBase REST gateway, e.g. http://hbase-rest:8080',
      )
      .default('http://127.0.0.1:8080'),
    'HBase REST gateway (hbase rest start), http(s)://[user:password@]host:port (default http://127.0.0.1:8080). A standalone dedup refuses to start when it would reach its own health server (CRAWLER_HEALTH_PORT, also 8080 by default) on this machine.',
    { secret: true },
  ),
  table: setting(
    'HBASE_TABLE',
    tableName.default('crawler_pages'),
    'Table of stored pages; created at start when missing.',
  ),
  maxVersions: setting(
    'HBASE_MAX_VERSIONS',
    z.number().int().min(1).max(1000).default(10),
    'Fetches kept per page (VERSIONS of the column family when the table is created; an existing table keeps its own and a mismatch is logged).',
  ),
  compressMinBytes: setting(
    'HBASE_COMPRESS_MIN_BYTES',
    z.number().int().min(0).default(4096),
    'Cells larger than this are stored gzip-compressed (unless gzip does not make them smaller).',
  ),
  maxCellBytes: setting(
    'HBASE_MAX_CELL_BYTES',
    z
      .number()
      .int()
      .min(1024)
      .default(10 * 1024 * 1024),
    "Largest cell (row key, column and value) sent, after compression; a page with a larger one is refused without a round trip. Match the gateway's hbase.client.keyvalue.maxsize (HBase default 10 MiB).",
  ),
  maxRequestBytes: setting(
    'HBASE_MAX_REQUEST_BYTES',
    z
      .number()
      .int()
      .min(64 * 1024)
      .default(8 * 1024 * 1024),
    'Cell bytes per REST request; a larger put is split into several requests (the gateway holds each request in its heap).',
  ),
  requestTimeoutMs: setting(
    'HBASE_REQUEST_TIMEOUT_MS',
    z.number().int().min(100).max(600_000).default(30_000),
    'Longest one REST request may take, connecting included; the gateway itself retries a down region server for minutes, so this bounds every call.',
  ),
};

export type HbaseConfig = ConfigOf<typeof hbaseSettings>;

export function loadHbaseConfig(options?: LoadOptions): HbaseConfig {
  return loadConfig('hbase', hbaseSettings, options);
}
