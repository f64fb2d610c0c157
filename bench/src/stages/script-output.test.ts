import { describe, expect, it } from 'vitest';
import { parseElasticsearchBench, parseRedisBench } from './script-output.js';

// Output as the scripts print it (2026-11-21).
const redis = `
standalone: 50,000 putIfAbsent lookups in batches of 100
    1 batches in flight: new keys     55,000/s, hits     60,000/s  (1.00 pipelines per batch)
    8 batches in flight: new keys    115,757/s, hits    204,752/s  (1.00 pipelines per batch)
  redis-benchmark -h 127.0.0.1 -p 16379 -t set,get -n 200000 -P 16 -q
      SET    711,744/s, GET    813,008/s

cluster: 50,000 putIfAbsent lookups in batches of 100
    8 batches in flight: new keys     42,815/s, hits     32,671/s  (3.00 pipelines per batch)
  redis-benchmark -h 127.0.0.1 -p 17001 --cluster -t set,get -n 200000 -P 16 -q
      SET    259,403/s, GET    376,648/s
`;

const elasticsearch = `insert 20000 records, median of 3
  bare client.bulk, 1000 per request, 1 at a time:   18746 docs/s (runs: 18746, 37018, 16171)
  bare client.bulk, 1000 per request, 2 at a time:   34328 docs/s (runs: 34328, 34601, 18580)
  linkbase.insertNew, 10000 per call:                 23639 docs/s (runs: 30161, 23639, 17464)
  linkbase.insertNew again, every record known (409): 52987 docs/s (runs: 52987, 33114, 57203)
findDue(limit 1000, perQueue 20) + lease: 10000 records on 100 hosts, refresh pacing 250 ms, 5 rounds, 5000 leased
`;

describe('parseRedisBench', () => {
  it('reads each mode, the last in-flight level and the redis-benchmark rates', () => {
    expect(parseRedisBench(redis)).toEqual([
      {
        mode: 'standalone',
        newKeysPerSecond: 115_757,
        hitsPerSecond: 204_752,
        setPerSecond: 711_744,
        getPerSecond: 813_008,
      },
      {
        mode: 'cluster',
        newKeysPerSecond: 42_815,
        hitsPerSecond: 32_671,
        setPerSecond: 259_403,
        getPerSecond: 376_648,
      },
    ]);
  });

  it('gives null when the output no longer has the expected lines', () => {
    expect(parseRedisBench('standalone: 5 putIfAbsent lookups\n  nothing else')).toBeNull();
    expect(parseRedisBench('')).toBeNull();
  });
});

describe('parseElasticsearchBench', () => {
  it('reads the insert comparison', () => {
    expect(parseElasticsearchBench(elasticsearch)).toEqual({
      records: 20_000,
      bareOneAtATime: 18_746,
      bareTwoAtATime: 34_328,
      insertNew: 23_639,
      insertKnown: 52_987,
    });
  });

  it('gives null when a line is missing', () => {
    expect(parseElasticsearchBench(elasticsearch.replace(/.*again.*\n/, ''))).toBeNull();
  });
});
