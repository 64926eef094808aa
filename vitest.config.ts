import { configDefaults, defineConfig } from 'vitest/config';

/** The tests that run installed agent CLIs: their own suite, `npm run test:clis` (vitest.clis.config.ts). */
export const INSTALLED_CLI_TESTS = [
  'claude',
  'cline',
  'codex',
  'continue',
  'copilot',
  'gemini',
  'kilo',
  'kimi',
  'opencode',
  'pi',
  'qwen',
].map((name) => `test/agents/cli/${name}.test.ts`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The slow hostile suite, the fault-injection suite and the installed CLIs have their own configs: npm run
    // test:hostile, test:faults, test:clis.
    exclude: [...configDefaults.exclude, 'test/hostile-slow/**', 'test/faults/**', ...INSTALLED_CLI_TESTS],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every skip is listed with its reason at the end (and logged for .ci/run's count).
    reporters: ['default', './test/support/skip-reporter.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
