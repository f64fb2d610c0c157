import { describe, expect, it } from 'vitest';
import { freshStackNames, parseExportLines, parseStackPids } from './stack-env.js';

describe('stack environment', () => {
  it('reads the export lines deploy/local/stack-env.sh prints', () => {
    expect(
      parseExportLines('export KAFKA_BROKERS=127.0.0.1:19092\nexport REDIS_URL=redis://127.0.0.1:16379\n# not this\n'),
    ).toEqual({ KAFKA_BROKERS: '127.0.0.1:19092', REDIS_URL: 'redis://127.0.0.1:16379' });
  });

  it('reads the pids of running services from stack.sh status', () => {
    const status =
      'kafka                127.0.0.1:19092        up    pid 7125\nredis                127.0.0.1:16379        down\nelasticsearch        127.0.0.1:19200        up    pid 7707\n';
    expect(parseStackPids(status)).toEqual([7125, 7707]);
  });

  it('names topics, index, table and keys for one run only, each in the form its store accepts', () => {
    const names = freshStackNames('bench');
    expect(names.CRAWLER_TOPIC_PREFIX).toMatch(/^bench-[0-9a-f]{8}\.$/);
    expect(names.ELASTICSEARCH_INDEX).toMatch(/^crawler-bench-[0-9a-f]{8}$/);
    expect(names.HBASE_TABLE).toMatch(/^crawler_bench_[0-9a-f]{8}$/);
    expect(names.REDIS_KEY_PREFIX).toMatch(/^crawler-bench-[0-9a-f]{8}:$/);
    expect(freshStackNames('bench').ELASTICSEARCH_INDEX).not.toBe(names.ELASTICSEARCH_INDEX);
  });
});
