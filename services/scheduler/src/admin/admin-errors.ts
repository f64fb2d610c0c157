import { CrawlerError, ErrorCode } from '@crawler/core';

export type AdminErrorCode =
  | typeof ErrorCode.ADMIN_UNAUTHORIZED
  | typeof ErrorCode.ADMIN_BAD_REQUEST
  | typeof ErrorCode.ADMIN_NOT_FOUND
  | typeof ErrorCode.ADMIN_CONFLICT
  | typeof ErrorCode.ADMIN_BODY_TOO_LARGE;

const HTTP_STATUS: Record<AdminErrorCode, number> = {
  ADMIN_UNAUTHORIZED: 401,
  ADMIN_BAD_REQUEST: 400,
  ADMIN_NOT_FOUND: 404,
  ADMIN_CONFLICT: 409,
  ADMIN_BODY_TOO_LARGE: 413,
};

/** A refused admin request: its code names why, and fixes the HTTP status of the answer. */
export class AdminRequestError extends CrawlerError {
  readonly httpStatus: number;

  constructor(code: AdminErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
    this.httpStatus = HTTP_STATUS[code];
  }
}
