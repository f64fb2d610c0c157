import { CrawlerError } from '@crawler/core';

/** The judge rule file cannot be read or a rule does not compile; the message names which. */
export class JudgeRulesError extends CrawlerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('DEDUP_JUDGE_RULES_INVALID', message, options);
  }
}

/** The external classifier did not give a verdict (after its retries); the page goes on unjudged. */
export class JudgeUnavailableError extends CrawlerError {
  constructor(message: string, options: { retriable?: boolean; cause?: unknown } = {}) {
    super('DEDUP_JUDGE_UNAVAILABLE', message, { retriable: options.retriable ?? true, cause: options.cause });
  }
}
