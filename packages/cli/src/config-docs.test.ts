import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configurationDoc } from './config-docs.js';

describe('docs/CONFIGURATION.md', () => {
  it('matches the settings schemas (run npm run docs:config after changing a setting)', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/CONFIGURATION.md', import.meta.url)), 'utf8');
    expect(doc).toBe(configurationDoc());
    expect(doc).toContain('`FETCHER_USER_AGENT`');
  });
});
