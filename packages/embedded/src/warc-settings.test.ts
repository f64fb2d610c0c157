import { ConfigError } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { loadWarcConfig } from './warc-settings.js';

describe('loadWarcConfig', () => {
  it('compresses at gzip level 6 and names no operator by default', () => {
    expect(loadWarcConfig({ env: {} })).toEqual({ gzipLevel: 6, operator: '' });
  });

  it('reads WARC_GZIP_LEVEL, 1 to 9', () => {
    expect(loadWarcConfig({ env: { WARC_GZIP_LEVEL: '1' } }).gzipLevel).toBe(1);
    expect(loadWarcConfig({ env: { WARC_GZIP_LEVEL: '9' } }).gzipLevel).toBe(9);
    expect(Object.isFrozen(loadWarcConfig({ env: {} }))).toBe(true);
  });

  it.each(['0', '10', 'fast', '4.5'])('refuses WARC_GZIP_LEVEL=%s, naming the setting', (bad) => {
    expect(() => loadWarcConfig({ env: { WARC_GZIP_LEVEL: bad } })).toThrow(ConfigError);
    expect(() => loadWarcConfig({ env: { WARC_GZIP_LEVEL: bad } })).toThrow(
      `warc: invalid setting WARC_GZIP_LEVEL (gzipLevel) = "${bad}"`,
    );
  });
});
