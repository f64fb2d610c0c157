export * from './runtime-settings.js';
export * from './health-server.js';
export * from './run-service.js';
