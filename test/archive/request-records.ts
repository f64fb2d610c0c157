import { expect } from 'vitest';
import { warcioRecords } from '../support/replay-tools.js';

/**
 * As warcio reads the files: every response record has one request record beside it, for the same
 * URI and WARC-Concurrent-To that response, and no request record stands alone.
 */
export function expectRequestBesideEachResponse(files: string[]): void {
  const records = warcioRecords(files);
  const responses = new Map(
    records.filter((record) => record['warc-type'] === 'response').map((record) => [record['warc-record-id'], record]),
  );
  const requests = records.filter((record) => record['warc-type'] === 'request');
  expect(responses.size).toBeGreaterThan(0);
  expect(requests).toHaveLength(responses.size);
  const answered = new Set<string>();
  for (const request of requests) {
    const response = responses.get(request['warc-concurrent-to']!);
    expect(response, `request record ${request['warc-record-id']}`).toBeDefined();
    expect(request['warc-target-uri']).toBe(response!['warc-target-uri']);
    answered.add(request['warc-concurrent-to']!);
  }
  expect(answered.size).toBe(responses.size);
}
