import { describe, expect, it } from 'vitest';
import { knownUrlRecord } from './known-urls.js';

describe('knownUrlRecord', () => {
  it('is fetched and not due for weeks, on hosts outside the test web', () => {
    const now = 1_790_000_000_000;
    const record = knownUrlRecord(1234, now);
    expect(record).toMatchObject({
      status: 'fetched',
      fetchCount: 1,
      host: 'known-234.bench.test',
      url: 'http://known-234.bench.test/page/1234',
    });
    expect(record.nextFetchAt - now).toBeGreaterThan(7 * 86_400_000);
  });

  it('gives every index its own id', () => {
    expect(knownUrlRecord(1, 0).id).not.toBe(knownUrlRecord(1001, 0).id);
  });
});
