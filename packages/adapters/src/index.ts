export * from './create-ports.js';
export * from './port-settings.js';
export * from './service-bus.js';
