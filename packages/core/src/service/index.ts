export * from './runtime-settings.js';
export * from './health-server.js';
export * from './run-service.js';
export * from './settings-section.js';
export * from './service-usage.js';
export * from './heap-growth.js';
