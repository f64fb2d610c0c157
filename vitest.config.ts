import { defineConfig } from 'vitest/config';

const sources = [
  'packages/*/src/**/*.test.ts',
  'services/*/src/**/*.test.ts',
  'bench/src/**/*.test.ts',
  'test/**/*.test.ts',
];

const integration = sources.map((glob) => glob.replace('*.test.ts', '*.int.test.ts'));

/** Integration files that stop, start or re-run the stack's services: nothing else may run beside them. */
const STACK_OUTAGE_FILES = [
  'test/reliability/store-outage.int.test.ts',
  'test/reliability/broker-restart.int.test.ts',
  'test/deploy/stack-up-idempotent.int.test.ts',
];

// Tests import workspace packages from their TypeScript sources, so `vitest` needs no prior build.
// Unit tests need nothing running; integration tests (*.int.test.ts) need `npm run stack:up`.
export default defineConfig({
  resolve: { conditions: ['@crawler/source'] },
  ssr: { resolve: { conditions: ['@crawler/source'] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: sources,
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
          // Both cores: many unit files wait on child processes and loopback servers.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: integration,
          exclude: [...STACK_OUTAGE_FILES, '**/node_modules/**'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Two files at a time: each uses its own topics, index, table and keys, and a test that
          // passes only on a quiet machine is a broken test.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-outage',
          include: STACK_OUTAGE_FILES,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // They stop and start the stack's services: alone, after every other integration file.
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
