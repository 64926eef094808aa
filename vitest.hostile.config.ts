import { defineConfig } from 'vitest/config';

/** The slow hostile suite (`npm run test:hostile`): one file at a time, so memory and timing belong to one program. */
export default defineConfig({
  test: {
    include: ['test/hostile-slow/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Every skip is listed with its reason at the end (and logged for .ci/run's count).
    reporters: ['default', './test/support/skip-reporter.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
