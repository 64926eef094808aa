import path from 'node:path';
import { HangbenchError } from '../../types/errors.js';
import { RUN_FILES } from '../../types/run-files.js';
import type { FlagTable, ResumeRule } from './flag.js';

/** The table's flags that follow `rule` on --resume, as `--name`. */
export function flagsWhere(table: FlagTable, rule: ResumeRule): string[] {
  return Object.entries(table)
    .filter(([, spec]) => spec.resume === rule)
    .map(([name]) => `--${name}`);
}

/** "only --concurrency may change, and --repeat grow": what a resume may be given again, from the table. */
export function resumeAllows(table: FlagTable): string {
  const change = flagsWhere(table, 'may change');
  const grow = flagsWhere(table, 'may grow');
  const changes = change.length === 0 ? 'nothing may change' : `only ${change.join(', ')} may change`;
  return grow.length === 0 ? changes : `${changes}, and ${grow.join(', ')} grow`;
}

/**
 * `eval --resume DIR` runs with the options in DIR's meta.json: a recorded flag given again, or case paths, would
 * make it another run, so they are refused, every one named as the command line spells it.
 */
export function refuseRecorded(
  table: FlagTable,
  given: readonly string[],
  positionals: readonly string[],
  runDir: string,
): void {
  const refused = [
    ...(positionals.length > 0 ? ['case paths'] : []),
    ...given.filter((name) => table[name]?.resume === 'recorded').map((name) => `--${name}`),
  ];
  if (refused.length > 0)
    throw new HangbenchError(
      'USAGE',
      `--resume runs with the options recorded in ${path.join(runDir, RUN_FILES.meta)}; leave out ${refused.join(', ')} (${resumeAllows(table)})`,
    );
}
