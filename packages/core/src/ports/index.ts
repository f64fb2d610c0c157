export * from './bus.js';
export * from './linkbase.js';
export * from './fingerprints.js';
export * from './page-store.js';
export * from './decorate-port.js';
export * from './prefixed-bus.js';
