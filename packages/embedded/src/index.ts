export * from './in-process-bus.js';
export * from './file-linkbase.js';
export * from './memory-fingerprint-store.js';
export * from './warc-page-store.js';
export * from './warc-record.js';
export * from './warc-settings.js';
