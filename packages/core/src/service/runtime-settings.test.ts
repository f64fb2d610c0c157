import { describe, expect, it } from 'vitest';
import { loadRuntimeConfig } from './runtime-settings.js';

describe('runtime settings', () => {
  it('defaults to the distributed adapters', () => {
    expect(loadRuntimeConfig({ env: {} })).toMatchObject({
      bus: 'kafka',
      linkbase: 'elasticsearch',
      fingerprints: 'redis',
      pageStore: 'hbase',
      topicPrefix: '',
    });
  });

  it('names the variable of an unknown adapter', () => {
    expect(() => loadRuntimeConfig({ env: { CRAWLER_BUS: 'rabbitmq' } })).toThrow(/CRAWLER_BUS \(bus\) = "rabbitmq"/);
    expect(() => loadRuntimeConfig({ env: { CRAWLER_TOPIC_PREFIX: 'a b' } })).toThrow(/CRAWLER_TOPIC_PREFIX/);
  });
});
