import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { isExpectedSkip } from './expected-skips.js';

const IN_CI = /^(true|1)$/i.test(process.env.CI ?? '');

/**
 * Lists every skipped test with the reason it gave (`ctx.skip(reason)`), after the run's own summary. With
 * HANGBENCH_SKIP_LOG set, also appends one line per skip to that file, so `.ci/run` can count them across suites.
 * With CI=true a skip that test/support/expected-skips.ts does not list fails the run.
 */
export default class SkipReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    const unexpected: string[] = [];
    for (const module of testModules) {
      const file = path.relative(process.cwd(), module.moduleId);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped') continue;
        const line = `${file} > ${test.fullName}: ${result.note ?? 'no reason given'}`;
        lines.push(line);
        if (!isExpectedSkip(file, test.fullName)) unexpected.push(line);
      }
    }
    if (lines.length > 0)
      console.log(
        `\n${lines.length} skipped, with the reason each gave:\n${lines.map((line) => `  ${line}`).join('\n')}`,
      );
    const log = process.env.HANGBENCH_SKIP_LOG;
    if (log) appendFileSync(log, lines.map((line) => `${line}\n`).join(''));
    if (IN_CI && unexpected.length > 0) {
      console.error(
        `\nCI=${process.env.CI}: ${unexpected.length} skip(s) not in test/support/expected-skips.ts (fix the machine, or list the skip with its reason):\n${unexpected.map((line) => `  ${line}`).join('\n')}`,
      );
      process.exitCode = 1;
    }
  }
}
