export * from './payload-digest.js';
export * from './surt-key.js';
export * from './cdxj-line.js';
