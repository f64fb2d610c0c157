import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { archiveSurtKey } from './surt-key.js';

/** Keys python's surt library (what pywb looks URLs up by) gave for these URLs: fixtures/surt-keys.json. */
const { cases } = JSON.parse(readFileSync(new URL('./fixtures/surt-keys.json', import.meta.url), 'utf8')) as {
  cases: [string, string][];
};

describe('archiveSurtKey', () => {
  it.each(cases)('%s -> %s as pywb computes it', (url, key) => {
    expect(archiveSurtKey(url)).toBe(key);
  });
});
