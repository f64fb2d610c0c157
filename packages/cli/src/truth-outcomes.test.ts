import { makeLinkRecord } from '@crawler/core/testing';
import type { LinkRecord } from '@crawler/core';
import type { GroundTruth } from '@crawler/testweb';
import { describe, expect, it } from 'vitest';
import { checkOutcomes } from './truth-outcomes.js';

const truth = {
  errors: [{ url: 'http://a.test/missing', status: 404 }],
  nonHtml: [{ url: 'http://a.test/logo.png', contentType: 'image/png' }],
  endless: ['http://a.test/stream'],
  flaky: [{ url: 'http://a.test/live', failures: 2, status: 503, finalStatus: 200 }],
  redirects: [
    { from: 'http://a.test/old', to: 'http://a.test/new', status: 301 },
    { from: 'http://a.test/loop', to: 'http://a.test/loop2', status: 302 },
  ],
  redirectLoops: ['http://a.test/loop'],
} as unknown as GroundTruth;

const recordsOf = (list: LinkRecord[]) => new Map(list.map((record) => [record.url, record]));
const expected = [
  makeLinkRecord('http://a.test/missing', { status: 'gone', httpStatus: 404 }),
  makeLinkRecord('http://a.test/logo.png', { status: 'error', lastOutcome: 'unsupported_type' }),
  makeLinkRecord('http://a.test/stream', { status: 'error', lastOutcome: 'timeout' }),
  makeLinkRecord('http://a.test/live', { status: 'fetched' }),
  makeLinkRecord('http://a.test/old', { status: 'redirect', redirectTo: 'http://a.test/new' }),
];

describe('checkOutcomes', () => {
  it('accepts each URL of known behaviour ending as the truth predicts, loops left to their own check', () => {
    expect(checkOutcomes(truth, recordsOf(expected))).toEqual({ checked: 5, wrong: [] });
  });

  it('names each URL that ended otherwise, with what it got', () => {
    const spent = makeLinkRecord('http://a.test/live', {
      status: 'error',
      lastOutcome: 'server_error',
      httpStatus: 503,
    });
    const result = checkOutcomes(truth, recordsOf([...expected.slice(0, 3), spent]));
    expect(result.wrong).toEqual([
      'http://a.test/live: expected fetched, got error (server_error, HTTP 503)',
      'http://a.test/old: expected redirect to http://a.test/new, got no record',
    ]);
  });
});
