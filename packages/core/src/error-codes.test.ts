import { describe, expect, it } from 'vitest';
import { ErrorCode, errorCodes } from './error-codes.js';
import { BackendError, CodecError, CrawlerError, errorCode, isRetriable } from './errors.js';

describe('error code registry', () => {
  it('names each code by itself', () => {
    for (const code of Object.keys(errorCodes)) expect(ErrorCode[code as ErrorCode]).toBe(code);
  });

  it('gives every error the retriable flag of its code, and nothing else decides it', () => {
    for (const [code, entry] of Object.entries(errorCodes))
      expect(new CrawlerError(code as ErrorCode, 'x').retriable).toBe(entry.retriable);
    expect(new BackendError('redis down').retriable).toBe(true);
    expect(new BackendError('store closed', { code: ErrorCode.BACKEND_REFUSED }).retriable).toBe(false);
    expect(isRetriable(new CodecError(ErrorCode.CODEC_CORRUPT, 'bad body'))).toBe(false);
  });

  it('treats an error the crawler did not name as UNEXPECTED and tries it again', () => {
    expect(errorCode(new Error('boom'))).toBe(ErrorCode.UNEXPECTED);
    expect(isRetriable(new Error('boom'))).toBe(errorCodes.UNEXPECTED.retriable);
    expect(errorCode(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
  });
});
