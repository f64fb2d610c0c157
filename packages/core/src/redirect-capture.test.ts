import { describe, expect, it } from 'vitest';
import { cdxjCaptureKind } from './archive/cdxj-line.js';
import { isRedirectCapture, isRedirectStatus } from './redirect-capture.js';

describe('redirect captures', () => {
  it('are the five statuses that send a client elsewhere, nothing else of 3xx', () => {
    expect([301, 302, 303, 307, 308].every(isRedirectStatus)).toBe(true);
    expect([200, 300, 304, 305, 404].some(isRedirectStatus)).toBe(false);
    expect(isRedirectStatus(null)).toBe(false);
    expect(isRedirectCapture({ httpStatus: 308 })).toBe(true);
    expect(isRedirectCapture({ httpStatus: 200 })).toBe(false);
  });

  it('are told from pages and revisits in the crawler index by their status', () => {
    expect(cdxjCaptureKind({ mime: 'text/html', status: '301' })).toBe('redirect');
    expect(cdxjCaptureKind({ mime: 'unk', status: '307' })).toBe('redirect');
    expect(cdxjCaptureKind({ mime: 'warc/revisit', status: '200' })).toBe('revisit');
    expect(cdxjCaptureKind({ mime: 'text/html', status: '200' })).toBe('page');
    expect(cdxjCaptureKind({ mime: 'application/pdf', status: '206' })).toBe('page');
  });
});
