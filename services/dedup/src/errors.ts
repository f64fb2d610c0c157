import { CrawlerError, ErrorCode } from '@crawler/core';

/** The judge rule file cannot be read or a rule does not compile; the message names which. */
export class JudgeRulesError extends CrawlerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(ErrorCode.DEDUP_JUDGE_RULES_INVALID, message, options);
  }
}

/**
 * The external classifier did not give a verdict (after its retries); the page goes on unjudged.
 * DEDUP_JUDGE_REFUSED: it answered, but with a refusal or no verdict, so asking again will not help.
 */
export class JudgeUnavailableError extends CrawlerError {
  constructor(
    message: string,
    options: {
      code?: typeof ErrorCode.DEDUP_JUDGE_UNAVAILABLE | typeof ErrorCode.DEDUP_JUDGE_REFUSED;
      cause?: unknown;
    } = {},
  ) {
    super(options.code ?? ErrorCode.DEDUP_JUDGE_UNAVAILABLE, message, { cause: options.cause });
  }
}
