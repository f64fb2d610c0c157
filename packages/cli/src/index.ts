export * from './embedded-crawl.js';
export * from './crawl-summary.js';
export * from './truth-check.js';
