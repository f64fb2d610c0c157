export * from './config.js';
export * from './extract-html.js';
export * from './decode-body.js';
export * from './linkextract-stage.js';
export * from './linkextract-service.js';
