import { ConfigError } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { extractWorkersOf, loadLinkextractConfig } from './config.js';

describe('LINKEXTRACT_WORKERS', () => {
  const workers = (value?: string) =>
    loadLinkextractConfig({ env: value === undefined ? {} : { LINKEXTRACT_WORKERS: value } }).workers;

  it('is "auto" by default: a thread per core but the main thread’s, none on one core, at most four', () => {
    expect(workers()).toBe('auto');
    expect([1, 2, 3, 8, 64].map((cores) => extractWorkersOf({ workers: 'auto' }, cores))).toEqual([0, 1, 2, 4, 4]);
  });

  it('takes a whole number of threads, 0 for parsing on the main thread, whatever the cores', () => {
    expect(workers('0')).toBe(0);
    expect(workers('3')).toBe(3);
    expect(workers('auto')).toBe('auto');
    expect(extractWorkersOf({ workers: 3 }, 1)).toBe(3);
    expect(loadLinkextractConfig({ env: {}, overrides: { workers: 2 } }).workers).toBe(2);
  });

  it('refuses anything else, naming the setting and what it takes', () => {
    for (const bad of ['-1', '2.5', 'many', '65', 'AUTO']) {
      expect(() => workers(bad), bad).toThrow(ConfigError);
      expect(() => workers(bad), bad).toThrow(
        /invalid setting LINKEXTRACT_WORKERS \(workers\) = ".*": "auto" or a whole number of threads from 0 to 64/,
      );
    }
  });
});
