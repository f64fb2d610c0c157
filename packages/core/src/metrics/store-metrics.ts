import { Counter, Histogram, type Registry } from 'prom-client';
import { errorCode } from '../errors.js';
import { decoratePort, type PortCall } from '../ports/decorate-port.js';
import { LATENCY_BUCKETS } from './latency-buckets.js';

export interface StoreMetrics {
  /**
   * The port, with every call that returns a promise timed and its failures counted by error
   * code. Calls returning anything else (scan's async iterator) pass through untimed.
   */
  instrument<T extends object>(port: T, store: string): T;
}

/**
 * Latency and errors of the stores behind the ports (link base, page store, fingerprints),
 * measured in the composition roots so that adapters stay unaware of metrics.
 */
export function createStoreMetrics(registry: Registry): StoreMetrics {
  const duration = new Histogram({
    name: 'crawler_store_operation_duration_seconds',
    help: 'Time of one call to a store (link base, page store, fingerprints, shared fetcher state), by operation and result.',
    labelNames: ['store', 'operation', 'result'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'crawler_store_errors_total',
    help: 'Store calls that failed, by error code.',
    labelNames: ['store', 'operation', 'code'],
    registers: [registry],
  });

  const timed =
    (call: PortCall, store: string, operation: string): PortCall =>
    (...args) => {
      const started = performance.now();
      const failed = (error: unknown) => {
        duration.observe({ store, operation, result: 'error' }, (performance.now() - started) / 1000);
        errors.inc({ store, operation, code: errorCode(error) });
        throw error;
      };
      let result: unknown;
      try {
        result = call(...args);
      } catch (error) {
        return failed(error);
      }
      if (!(result instanceof Promise)) return result;
      return result.then((value: unknown) => {
        duration.observe({ store, operation, result: 'ok' }, (performance.now() - started) / 1000);
        return value;
      }, failed);
    };

  return {
    instrument: (port, store) => decoratePort(port, (call, operation) => timed(call, store, operation)),
  };
}
