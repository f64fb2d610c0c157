export * from './define-config.js';
export * from './regex-source.js';
