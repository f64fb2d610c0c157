import { defineConfig } from 'vitest/config';

// Tests import workspace packages from their TypeScript sources, so `vitest` needs no prior build.
export default defineConfig({
  resolve: { conditions: ['@crawler/source'] },
  ssr: { resolve: { conditions: ['@crawler/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
