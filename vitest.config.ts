import { defineConfig } from 'vitest/config';

const sources = [
  'packages/*/src/**/*.test.ts',
  'services/*/src/**/*.test.ts',
  'bench/src/**/*.test.ts',
  'test/**/*.test.ts',
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
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: sources.map((glob) => glob.replace('*.test.ts', '*.int.test.ts')),
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One file at a time: they share one broker, one cluster and two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
