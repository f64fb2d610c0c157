import { describe, expect, it } from 'vitest';
import { Schemas } from './messages.js';
import { sampleMessages } from './testing/sample-messages.js';
import { urlIdentityOf, withUrlIdentity } from './url-identity.js';

const fetched = sampleMessages[Schemas.FetchResult];
const identity = {
  url: fetched.url,
  urlId: fetched.urlId,
  host: fetched.host,
  queueKey: fetched.queueKey,
  depth: fetched.depth,
  jobId: fetched.jobId,
  traceId: fetched.traceId,
};

describe('urlIdentityOf', () => {
  it('copies the seven fields that name a URL and its crawl, and nothing else of the message', () => {
    expect(urlIdentityOf(fetched)).toEqual(identity);
  });
});

describe('withUrlIdentity', () => {
  it('puts the identity first and the fields after it, nothing else of the message', () => {
    const built = withUrlIdentity(fetched, { outcome: 'ok', meta: {} });
    expect(built).toEqual({ ...identity, outcome: 'ok', meta: {} });
    expect(Object.keys(built)).toEqual([...Object.keys(identity), 'outcome', 'meta']);
  });
});
