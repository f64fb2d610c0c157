import { CrawlerError, ErrorCode } from '@crawler/core';

/** Each code's meaning and retriability are in core's registry (error-codes.ts). */
export type RenderErrorCode = Extract<ErrorCode, `RENDER_${string}`>;

/**
 * A render that did not happen. Never the URL's failure: the page is kept as plainly fetched and
 * flagged with the code (`renderError` in its meta).
 */
export class RenderError extends CrawlerError {
  declare readonly code: RenderErrorCode;

  constructor(code: RenderErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** The RenderError a thrown value stands for: browser disconnects and closed targets read as a crash. */
export function asRenderError(error: unknown): RenderError {
  if (error instanceof RenderError) return error;
  const message = (error as Error)?.message ?? String(error);
  if (/closed|disconnected|crash/i.test(message))
    return new RenderError(ErrorCode.RENDER_BROWSER_CRASHED, `the browser went away: ${message.slice(0, 300)}`, {
      cause: error,
    });
  return new RenderError(ErrorCode.RENDER_FAILED, message.slice(0, 300), { cause: error });
}
