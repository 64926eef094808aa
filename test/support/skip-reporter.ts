import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Lists every skipped test with the reason it gave (`ctx.skip(reason)`), after the run's own summary. With
 * HANGBENCH_SKIP_LOG set, also appends one line per skip to that file, so `.ci/run` can count them across suites.
 */
export default class SkipReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const module of testModules) {
      const file = path.relative(process.cwd(), module.moduleId);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped') continue;
        lines.push(`${file} > ${test.fullName}: ${result.note ?? 'no reason given'}`);
      }
    }
    if (lines.length > 0) console.log(`\n${lines.length} skipped, with the reason each gave:\n${lines.map((line) => `  ${line}`).join('\n')}`);
    const log = process.env.HANGBENCH_SKIP_LOG;
    if (log) appendFileSync(log, lines.map((line) => `${line}\n`).join(''));
  }
}
