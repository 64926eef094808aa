import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The slow hostile suite and the fault-injection suite have their own configs: npm run test:hostile, test:faults.
    exclude: [...configDefaults.exclude, 'test/hostile-slow/**', 'test/faults/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every skip is listed with its reason at the end (and logged for .ci/run's count).
    reporters: ['default', './test/support/skip-reporter.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
