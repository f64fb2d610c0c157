import { CrawlerError, ErrorCode } from '@crawler/core';

/** The job's extraction rules cannot be read or compiled; the message names the rule and field. */
export class ExtractionRulesError extends CrawlerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(ErrorCode.LINKEXTRACT_RULES_INVALID, message, options);
  }
}
