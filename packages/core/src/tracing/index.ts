export * from './tracing-settings.js';
export * from './trace-context.js';
export * from './start-tracing.js';
export * from './traced-port.js';
