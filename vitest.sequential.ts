import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * A suite that runs one file at a time (the slow hostile suite, the faults, the installed CLIs): each file's memory,
 * timing and CPU belong to one program, and every skip is listed with its reason at the end (and logged for .ci/run's
 * count).
 */
export function sequentialSuite(include: readonly string[]): ViteUserConfig {
  return defineConfig({
    test: {
      include: [...include],
      testTimeout: 120_000,
      hookTimeout: 60_000,
      reporters: ['default', './test/support/skip-reporter.ts'],
      pool: 'forks',
      maxWorkers: 1,
      fileParallelism: false,
    },
  });
}
