import { describe, expect, it } from 'vitest';
import { Schemas } from './messages.js';
import { sampleMessages } from './testing/sample-messages.js';
import { urlIdentityOf } from './url-identity.js';

describe('urlIdentityOf', () => {
  it('copies the seven fields that name a URL and its crawl, and nothing else of the message', () => {
    const fetched = sampleMessages[Schemas.FetchResult];
    expect(urlIdentityOf(fetched)).toEqual({
      url: fetched.url,
      urlId: fetched.urlId,
      host: fetched.host,
      queueKey: fetched.queueKey,
      depth: fetched.depth,
      jobId: fetched.jobId,
      traceId: fetched.traceId,
    });
  });
});
