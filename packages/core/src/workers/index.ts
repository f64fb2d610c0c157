export * from './worker-errors.js';
export * from './worker-pool.js';
export * from './worker-script.js';
export * from './serve-worker-tasks.js';
