export * from './one-process-crawl.js';
export * from './crawl-summary.js';
export * from './truth-check.js';
export { testWebOverrides } from './commands/demo.js';
export { checkSimilarCommand, type SimilarReport } from './commands/check-similar.js';
