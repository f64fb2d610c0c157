export * from './metrics-registry.js';
export * from './stage-metrics.js';
