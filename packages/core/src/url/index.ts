export * from './canonicalize.js';
export * from './surt.js';
export * from './url-id.js';
export * from './queue-key.js';
export * from './registrable-domain.js';
export * from './host-pattern.js';
