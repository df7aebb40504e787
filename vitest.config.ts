import { defineConfig } from 'vitest/config';

/**
 * Soak tests (`*.soak.test.ts`: hundreds of exporter runs, hundreds of runs killed at random points) take
 * minutes and prove what a nightly run proves: they run only with CLOUDGATE_SOAK=1, which a
 * nightly-sized CI run sets. Every other test runs always.
 */
const soak = process.env.CLOUDGATE_SOAK === '1';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', ...(soak ? [] : ['test/**/*.soak.test.{ts,tsx}'])],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    setupFiles: ['test/setup-env.ts'],
  },
});
