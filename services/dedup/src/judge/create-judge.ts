import { ConfigError } from '@crawler/core';
import type { DedupConfig } from '../config.js';
import { createHttpJudge } from './http-judge.js';
import type { Judge } from './judge.js';
import { createRulesJudge, loadJudgeRules } from './rules-judge.js';

/** The judge DEDUP_JUDGE names, or null for none. A rules judge's file is read and compiled here, at start. */
export function createJudge(config: DedupConfig): Judge | null {
  switch (config.judge) {
    case 'none':
      return null;
    case 'rules':
      if (!config.judgeRulesFile)
        throw new ConfigError(
          'dedup: DEDUP_JUDGE=rules needs DEDUP_JUDGE_RULES_FILE, the JSON file of keyword and pattern lists',
        );
      return createRulesJudge(loadJudgeRules(config.judgeRulesFile));
    case 'http':
      if (!config.judgeUrl)
        throw new ConfigError('dedup: DEDUP_JUDGE=http needs DEDUP_JUDGE_URL, the classifier to call');
      return createHttpJudge({
        url: config.judgeUrl,
        token: config.judgeToken ?? null,
        timeoutMs: config.judgeTimeoutMs,
        attempts: config.judgeAttempts,
      });
  }
}
