import { errors } from '@elastic/elasticsearch';
import { BackendError } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { BulkItemsError, toBackendError } from './elasticsearch-errors.js';

function responseError(statusCode: number, type: string, reason: string) {
  return new errors.ResponseError({
    body: { error: { type, reason }, status: statusCode },
    statusCode,
    headers: {},
    warnings: null,
    meta: {} as never,
  });
}

describe('elasticsearch errors', () => {
  it('names the operation, index and node, and keeps the cause', () => {
    const cause = responseError(503, 'cluster_block_exception', 'blocked by: [SERVICE_UNAVAILABLE]');
    const error = toBackendError(cause, 'findDue', 'links', 'http://es:9200');
    expect(error).toBeInstanceOf(BackendError);
    expect(error.message).toBe(
      'elasticsearch findDue on index links at http://es:9200 failed: HTTP 503 cluster_block_exception: blocked by: [SERVICE_UNAVAILABLE]',
    );
    expect(error.retriable).toBe(true);
    expect(error.cause).toBe(cause);
  });

  it('retries overload, server faults and lost connections, not refused requests', () => {
    expect(
      toBackendError(responseError(429, 'es_rejected_execution_exception', 'queue full'), 'lease', 'links', 'n')
        .retriable,
    ).toBe(true);
    expect(
      toBackendError(responseError(400, 'strict_dynamic_mapping_exception', 'no'), 'update', 'links', 'n').retriable,
    ).toBe(false);
    expect(
      toBackendError(
        new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:1'),
        'install',
        'links',
        'http://127.0.0.1:1',
      ).message,
    ).toMatch(/install on index links at http:\/\/127.0.0.1:1 failed: cluster unreachable/);
    expect(toBackendError(new errors.TimeoutError('Request timed out'), 'stats', 'links', 'n').retriable).toBe(true);
    const own = new BackendError('already wrapped');
    expect(toBackendError(own, 'scan', 'links', 'n')).toBe(own);
  });

  it('lists failed bulk items and is retriable only when every failure is', () => {
    const mapping = new BulkItemsError('insertNew', 'links', [
      { id: 'a', status: 400, type: 'strict_dynamic_mapping_exception', reason: 'extra field' },
      { id: 'b', status: 429, type: 'es_rejected_execution_exception', reason: 'queue full' },
    ]);
    expect(mapping).toBeInstanceOf(BackendError);
    expect(mapping.message).toContain(
      'insertNew on index links: 2 bulk item(s) failed: a: 400 strict_dynamic_mapping_exception (extra field); b: 429',
    );
    expect(mapping.retriable).toBe(false);
    expect(mapping.failures).toHaveLength(2);
    expect(
      new BulkItemsError('lease', 'links', [{ id: 'a', status: 503, type: 'unavailable_shards_exception', reason: '' }])
        .retriable,
    ).toBe(true);
  });
});
