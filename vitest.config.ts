import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The slow hostile suite has its own config and script: npm run test:hostile.
    exclude: [...configDefaults.exclude, 'test/hostile-slow/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every skip is listed with its reason at the end (and logged for .ci/run's count).
    reporters: ['default', './test/support/skip-reporter.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
