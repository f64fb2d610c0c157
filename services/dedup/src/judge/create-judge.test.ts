import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { loadDedupConfig } from '../config.js';
import { createJudge } from './create-judge.js';

describe('createJudge', () => {
  it('builds the judge DEDUP_JUDGE names, and none by default', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'judge-')), 'rules.json');
    writeFileSync(file, JSON.stringify({ categories: [{ name: 'spam', keywords: ['casino'] }] }));
    expect(createJudge(loadDedupConfig({ env: {} }))).toBeNull();
    expect(createJudge(loadDedupConfig({ env: { DEDUP_JUDGE: 'rules', DEDUP_JUDGE_RULES_FILE: file } }))?.name).toBe(
      'rules',
    );
    expect(
      createJudge(loadDedupConfig({ env: { DEDUP_JUDGE: 'http', DEDUP_JUDGE_URL: 'http://127.0.0.1:9/classify' } }))
        ?.name,
    ).toBe('http');
  });

  it('says which setting is missing', () => {
    expect(() => createJudge(loadDedupConfig({ env: { DEDUP_JUDGE: 'rules' } }))).toThrow(ConfigError);
    expect(() => createJudge(loadDedupConfig({ env: { DEDUP_JUDGE: 'http' } }))).toThrow(/DEDUP_JUDGE_URL/);
    expect(() => loadDedupConfig({ env: { DEDUP_JUDGE_URL: 'ftp://x' } })).toThrow(/DEDUP_JUDGE_URL/);
  });
});
