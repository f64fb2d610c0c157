import { BackendError } from '@crawler/core';
import { freePort } from '@crawler/core/free-port';
import { describe, expect, it } from 'vitest';
import { createElasticsearchLinkBase } from './elasticsearch-linkbase.js';
import { quiet, testConfig } from './testing/test-index.js';

describe('an unreachable cluster', () => {
  it('fails opening with a retriable BackendError naming the node, never its credentials', async () => {
    const port = await freePort();
    const config = testConfig({
      url: `http://crawler:url-secret@127.0.0.1:${port}`,
      username: 'crawler',
      password: 'basic-secret',
      requestTimeoutMs: 2000,
    });
    const failed = await createElasticsearchLinkBase(config, quiet).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(BackendError);
    const error = failed as BackendError;
    expect(error.retriable).toBe(true);
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.message).toContain(`install on index ${config.index} at http://[redacted]@127.0.0.1:${port}`);
    expect(error.message).toContain('cluster unreachable');
    expect(error.message).not.toMatch(/secret/);
  });

  it('fails opening with an API key the same way', async () => {
    const port = await freePort();
    const config = testConfig({ url: `http://127.0.0.1:${port}`, apiKey: 'api-secret', requestTimeoutMs: 2000 });
    const failed = await createElasticsearchLinkBase(config, quiet).catch((error: unknown) => error);
    expect(failed).toMatchObject({
      retriable: true,
      message: expect.stringContaining(`at http://127.0.0.1:${port} failed: cluster unreachable`),
    });
    expect(String(failed)).not.toContain('api-secret');
  });
});
