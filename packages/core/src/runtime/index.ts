export * from './offset-tracker.js';
export * from './batching-producer.js';
export * from './stage.js';
export * from './stage-runner.js';
export * from './semaphore.js';
export * from './sleep.js';
export * from './partitioner.js';
export * from './dead-letter.js';
