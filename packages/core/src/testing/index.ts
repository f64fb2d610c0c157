export * from './sample-messages.js';
export * from './link-records.js';
export * from './wait-for.js';
export * from './bus-contract.js';
export * from './linkbase-contract.js';
export * from './fingerprints-contract.js';
export * from './page-store-contract.js';
export * from './seeded-random.js';
