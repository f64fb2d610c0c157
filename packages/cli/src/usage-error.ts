import { CrawlerError, ErrorCode } from '@crawler/core';

/** A bad command line: printed as one line, exit code 2. */
export class UsageError extends CrawlerError {
  constructor(message: string) {
    super(ErrorCode.CLI_USAGE, message);
  }
}
