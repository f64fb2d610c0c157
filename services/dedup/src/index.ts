export * from './config.js';
export * from './content-digest.js';
export * from './decide-change.js';
export * from './dedup-stage.js';
export * from './dedup-service.js';
export * from './compose-dedup.js';
