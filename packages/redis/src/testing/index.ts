export * from './redis-test-support.js';
