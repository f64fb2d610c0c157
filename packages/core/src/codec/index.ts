export * from './codec.js';
export * from './schema-registry.js';
export * from './rabin-fingerprint.js';
export * from './schemas-dir.js';
