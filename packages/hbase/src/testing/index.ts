export * from './hbase-test-support.js';
