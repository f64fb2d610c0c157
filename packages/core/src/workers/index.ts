export * from './built-module.js';
export * from './worker-errors.js';
export * from './worker-pool.js';
export * from './serve-worker-tasks.js';
