import { CrawlerError } from '@crawler/core';

export type RenderErrorCode =
  /** Chromium could not be started (missing executable, no memory). */
  | 'RENDER_LAUNCH_FAILED'
  /** The browser went away while the page rendered. */
  | 'RENDER_BROWSER_CRASHED'
  /** No DOM could be read from the page within its time limit. */
  | 'RENDER_TIMEOUT'
  /** Every browser page was busy and too many pages already waited for one. */
  | 'RENDER_QUEUE_FULL'
  /** Anything else the browser refused to do. */
  | 'RENDER_FAILED';

/**
 * A render that did not happen. Never the URL's failure: the page is kept as plainly fetched and
 * flagged with the code (`renderError` in its meta).
 */
export class RenderError extends CrawlerError {
  declare readonly code: RenderErrorCode;

  constructor(code: RenderErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { retriable: code !== 'RENDER_FAILED', cause: options.cause });
  }
}

/** The RenderError a thrown value stands for: browser disconnects and closed targets read as a crash. */
export function asRenderError(error: unknown): RenderError {
  if (error instanceof RenderError) return error;
  const message = (error as Error)?.message ?? String(error);
  if (/closed|disconnected|crash/i.test(message))
    return new RenderError('RENDER_BROWSER_CRASHED', `the browser went away: ${message.slice(0, 300)}`, {
      cause: error,
    });
  return new RenderError('RENDER_FAILED', message.slice(0, 300), { cause: error });
}
