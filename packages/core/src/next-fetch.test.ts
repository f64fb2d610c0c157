import { describe, expect, it } from 'vitest';
import { createLinkRecord } from './link-record.js';
import { fetchAfter, fetchNever, fetchNow, NEVER_DUE, withNextFetch } from './next-fetch.js';

describe('next fetch', () => {
  const record = { ...createLinkRecord('http://example.test/a'), status: 'retry' as const, consecutiveFailures: 2 };

  it('stores now, after a wait, and never as the due time the link base sorts on', () => {
    expect(withNextFetch(record, fetchNow, 5_000).nextFetchAt).toBe(5_000);
    expect(withNextFetch(record, fetchAfter(60_000), 5_000).nextFetchAt).toBe(65_000);
    expect(withNextFetch(record, fetchNever, 5_000).nextFetchAt).toBe(NEVER_DUE);
  });

  it('keeps "never" later than any wait, so a never-due URL is never selected as due', () => {
    const far = withNextFetch(record, fetchAfter(100 * 365 * 86_400_000), Date.UTC(2100, 0, 1)).nextFetchAt;
    expect(NEVER_DUE).toBeGreaterThan(far);
  });

  it('changes nothing else of the record', () => {
    const { nextFetchAt: _, ...rest } = withNextFetch(record, fetchAfter(1), 0);
    const { nextFetchAt: __, ...before } = record;
    expect(rest).toEqual(before);
  });
});
