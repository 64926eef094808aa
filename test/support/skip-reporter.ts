import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { inCi } from './ci.js';
import { currentUser, EXPECTED_SKIPS, isExpectedSkip, type ExpectedSkip } from './expected-skips.js';

export interface SkipReporterOptions {
  /** the skips CI accepts (default test/support/expected-skips.ts); a test of the reporter gives its own. */
  readonly expected?: readonly ExpectedSkip[];
}

/**
 * Lists every skipped test with the reason it gave (`ctx.skip(reason)`), after the run's own summary. With
 * HANGBENCH_SKIP_LOG set, also appends one line per skip to that file, so `.ci/run` can count them across suites.
 * In CI (test/support/ci.ts) a skip that test/support/expected-skips.ts does not list, for this user and with this
 * reason, fails the run.
 */
export default class SkipReporter implements Reporter {
  private readonly expected: readonly ExpectedSkip[];

  constructor(options: SkipReporterOptions = {}) {
    this.expected = options.expected ?? EXPECTED_SKIPS;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    const unexpected: string[] = [];
    const user = currentUser();
    for (const module of testModules) {
      const file = path.relative(process.cwd(), module.moduleId);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped') continue;
        const line = `${file} > ${test.fullName}: ${result.note ?? 'no reason given'}`;
        lines.push(line);
        if (!isExpectedSkip({ file, test: test.fullName, note: result.note, user }, this.expected))
          unexpected.push(line);
      }
    }
    if (lines.length > 0)
      console.log(
        `\n${lines.length} skipped, with the reason each gave:\n${lines.map((line) => `  ${line}`).join('\n')}`,
      );
    const log = process.env.HANGBENCH_SKIP_LOG;
    if (log) appendFileSync(log, lines.map((line) => `${line}\n`).join(''));
    if (inCi() && unexpected.length > 0) {
      console.error(
        `\nCI=${process.env.CI}: ${unexpected.length} skip(s) not in test/support/expected-skips.ts for ${user} with this reason (fix the machine, or list the skip with its reason):\n${unexpected.map((line) => `  ${line}`).join('\n')}`,
      );
      process.exitCode = 1;
    }
  }
}
