export * from './metrics-registry.js';
export * from './stage-metrics.js';
export * from './store-metrics.js';
export * from './producer-metrics.js';
export * from './prometheus-text.js';
export * from './latency-buckets.js';
