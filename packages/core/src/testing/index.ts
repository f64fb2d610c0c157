export * from './sample-messages.js';
