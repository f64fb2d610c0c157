import { describe, expect, it } from 'vitest';
import { BackendError } from '../errors.js';
import { createMetricsRegistry } from './metrics-registry.js';
import { sampleValue } from './prometheus-text.js';
import { createStoreMetrics } from './store-metrics.js';

class FakeStore {
  #writes = 0;
  async put(count: number): Promise<number> {
    this.#writes += count;
    return this.#writes;
  }
  async get(): Promise<never> {
    throw new BackendError('gateway down');
  }
  async *scan(): AsyncIterable<number> {
    yield this.#writes;
  }
  get writes(): number {
    return this.#writes;
  }
}

describe('store metrics', () => {
  it('times every call of the port and counts failures by code, leaving results and private state intact', async () => {
    const registry = createMetricsRegistry('dedup', { processMetrics: false });
    const store = createStoreMetrics(registry).instrument(new FakeStore(), 'pages');
    expect(await store.put(2)).toBe(2);
    expect(await store.put(3)).toBe(5);
    await expect(store.get()).rejects.toThrow('gateway down');
    const scanned: number[] = [];
    for await (const value of store.scan()) scanned.push(value);
    expect(scanned).toEqual([5]);
    expect(store.writes).toBe(5);
    const text = await registry.metrics();
    expect(
      sampleValue(text, 'crawler_store_operation_duration_seconds_count', {
        store: 'pages',
        operation: 'put',
        result: 'ok',
      }),
    ).toBe(2);
    expect(
      sampleValue(text, 'crawler_store_operation_duration_seconds_count', {
        store: 'pages',
        operation: 'get',
        result: 'error',
      }),
    ).toBe(1);
    expect(
      sampleValue(text, 'crawler_store_errors_total', {
        store: 'pages',
        operation: 'get',
        code: 'BACKEND_UNAVAILABLE',
      }),
    ).toBe(1);
    expect(sampleValue(text, 'crawler_store_operation_duration_seconds_count', { operation: 'scan' })).toBeUndefined();
  });
});
