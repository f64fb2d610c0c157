export * from './config.js';
export * from './apply-status.js';
export * from './new-link-records.js';
export * from './scheduler-stages.js';
export * from './frontier-emitter.js';
export * from './scheduler-service.js';
export * from './redirect-chain.js';
export * from './compose-scheduler.js';
