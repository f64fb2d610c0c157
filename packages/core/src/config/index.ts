export * from './define-config.js';
