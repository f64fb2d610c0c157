import { describe, expect, it } from 'vitest';
import { Topics } from './catalog.js';
import { Codec } from './codec/codec.js';
import { Schemas } from './messages.js';
import { statusEmission, statusUpdate } from './status-update.js';

const page = {
  url: 'http://a.test/x',
  urlId: 'id-x',
  host: 'a.test',
  queueKey: 'a.test',
  depth: 1,
  jobId: 'job',
  traceId: 'trace',
  body: Buffer.from('not part of a status'),
};

describe('statusUpdate', () => {
  it('copies the URL identity, takes the fields given and leaves every other field empty', () => {
    const status = statusUpdate(page, { outcome: 'timeout', fetchedAt: 5, retriable: true, errorCode: 'E' });
    expect(status).toEqual({
      url: 'http://a.test/x',
      urlId: 'id-x',
      host: 'a.test',
      queueKey: 'a.test',
      depth: 1,
      jobId: 'job',
      traceId: 'trace',
      outcome: 'timeout',
      httpStatus: null,
      fetchedAt: 5,
      attempt: 0,
      redirectTo: null,
      change: null,
      duplicateOf: null,
      distance: null,
      digest: null,
      rawDigest: null,
      etag: null,
      lastModified: null,
      retryAfterMs: null,
      errorCode: 'E',
      errorMessage: null,
      retriable: true,
      verdict: null,
      meta: {},
    });
    // What it builds is a whole message of the schema.
    expect(new Codec().decode(new Codec().encode(Schemas.StatusUpdate, status), Schemas.StatusUpdate)).toEqual(status);
  });

  it('is emitted on crawl.status, keyed by the URL queue', () => {
    const emission = statusEmission(page, { outcome: 'ok', fetchedAt: 1, httpStatus: 200, digest: 'd' });
    expect(emission).toMatchObject({ topic: Topics.status, schema: Schemas.StatusUpdate, key: 'a.test' });
    expect(emission.value).toMatchObject({ outcome: 'ok', httpStatus: 200, digest: 'd', change: null });
  });
});
