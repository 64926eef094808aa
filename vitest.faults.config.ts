import { defineConfig } from 'vitest/config';

/** The fault-injection suite (`npm run test:faults`): the harness's own faults, one file at a time, real mounts and signals. */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Every skip is listed with its reason at the end (and logged for .ci/run's count).
    reporters: ['default', './test/support/skip-reporter.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
