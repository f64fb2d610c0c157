import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configFileKeysSource, configurationDoc } from './config-docs.js';

describe('docs/CONFIGURATION.md', () => {
  it('matches the settings schemas (run npm run docs:config after changing a setting)', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/CONFIGURATION.md', import.meta.url)), 'utf8');
    expect(doc).toBe(configurationDoc());
    expect(doc).toContain('`FETCHER_USER_AGENT`');
  });

  it('lists every config file key for the services to check against (run npm run docs:config)', () => {
    const source = readFileSync(
      fileURLToPath(new URL('../../core/src/config/config-file-keys.ts', import.meta.url)),
      'utf8',
    );
    expect(source).toBe(configFileKeysSource());
    expect(source).toMatch(/fetcher: \[[^\]]*'userAgent'/);
  });
});
