import { constants, createWriteStream, lstatSync, openSync, unlinkSync } from 'node:fs';
import type { DestinationStream } from 'pino';
import { describeWriteFailure, WriteFailedError, type WriteFailureLatch } from './write-failure.js';

export interface CrawlLog {
  destination: DestinationStream;
  /** Writes what is buffered and closes the file; never fails (a failure was reported already). */
  close(): Promise<void>;
}

/**
 * crawl.log in the output folder, appended to. A symlink planted at its name is removed, not
 * followed, and the file is opened with O_NOFOLLOW. A write that fails (a full disk: the log is on
 * the same disk as the pages) is reported to the latch, which stops the crawl, instead of pino's
 * own file stream, which on a full disk spun forever in its exit handler, deaf to every signal.
 */
export function openCrawlLog(path: string, latch: WriteFailureLatch): CrawlLog {
  let fd: number;
  try {
    if (isSymlink(path)) unlinkSync(path);
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    throw new WriteFailedError(describeWriteFailure(path, error, error as Error), { cause: error });
  }
  const stream = createWriteStream(path, { fd });
  let failed = false;
  stream.on('error', (error) => {
    failed = true;
    latch.fail(new WriteFailedError(describeWriteFailure(path, error, error), { cause: error }));
  });
  const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  return {
    destination: { write: (line: string) => void (!failed && stream.write(line)) },
    close: async () => {
      if (!stream.destroyed) stream.end();
      await closed;
    },
  };
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
