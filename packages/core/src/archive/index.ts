export * from './payload-digest.js';
export * from './surt-key.js';
