export * from './create-ports.js';
