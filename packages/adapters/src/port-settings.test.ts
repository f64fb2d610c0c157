import { ConfigError, loadRuntimeConfig } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { portSettings } from './port-settings.js';

/** What a standalone service does at start: every group of its ports checked against the runtime. */
function check(env: NodeJS.ProcessEnv): void {
  const runtime = loadRuntimeConfig({ env });
  for (const section of portSettings(['pageStore'])) section.check(runtime, env);
}

describe('page store settings', () => {
  it('lists the groups of both page stores, for --help', () => {
    expect(portSettings(['pageStore']).map((section) => section.name)).toEqual(['hbase', 'warc']);
  });

  it.each(['0', '10', 'fast'])('refuses WARC_GZIP_LEVEL=%s at start when the WARC store is selected', (bad) => {
    expect(() => check({ CRAWLER_PAGE_STORE: 'warc', WARC_GZIP_LEVEL: bad })).toThrow(ConfigError);
    expect(() => check({ CRAWLER_PAGE_STORE: 'warc', WARC_GZIP_LEVEL: bad })).toThrow(
      /invalid setting WARC_GZIP_LEVEL/,
    );
  });

  it('ignores WARC_GZIP_LEVEL when HBase stores the pages', () => {
    expect(() =>
      check({ CRAWLER_PAGE_STORE: 'hbase', HBASE_REST_URL: 'http://hbase-rest:8080', WARC_GZIP_LEVEL: 'fast' }),
    ).not.toThrow();
  });
});
