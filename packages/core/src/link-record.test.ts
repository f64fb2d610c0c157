import { describe, expect, it } from 'vitest';
import { createLinkRecord, DEFAULT_JOB_ID, linkRecordId } from './link-record.js';
import { urlId } from './url/url-id.js';

describe('link record ids', () => {
  const url = 'http://example.test/a';

  it('give each job its own record of a URL', () => {
    expect(linkRecordId('news', url)).not.toBe(linkRecordId('blogs', url));
    expect(linkRecordId('news', url)).not.toBe(linkRecordId('news', 'http://example.test/b'));
    expect(linkRecordId('news', url)).toMatch(/^[0-9a-f]{40}$/);
    // The separator keeps job and URL apart: no job id can spell another job's URL.
    expect(linkRecordId('a', 'b c')).not.toBe(linkRecordId('a b', 'c'));
  });

  it("keep the default job's ids as they were, so an existing link base keeps its records", () => {
    expect(linkRecordId(DEFAULT_JOB_ID, url)).toBe(urlId(url));
  });

  it('are what a new record of a job gets', () => {
    expect(createLinkRecord(url, { jobId: 'news' }).id).toBe(linkRecordId('news', url));
    expect(createLinkRecord(url).id).toBe(urlId(url));
  });
});
