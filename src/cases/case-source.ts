import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The case library shipped with the package: `<package>/cases`, found from this file, not from the working folder. */
export const BUNDLED_CASES_DIR = fileURLToPath(new URL('../../cases', import.meta.url));

/** Where the cases of a run come from: paths given, the project's own `cases/`, or the bundled library. */
export type CaseOrigin = 'given' | 'project' | 'bundled';

export interface CaseSource {
  readonly inputs: readonly string[];
  readonly origin: CaseOrigin;
}

/** Paths given win; then `cases/` of the working folder; then the library the package ships, so an empty project runs it. */
export function caseSource(inputs: readonly string[], cwd: string): CaseSource {
  if (inputs.length > 0) return { inputs, origin: 'given' };
  if (existsSync(path.join(cwd, 'cases'))) return { inputs: ['cases'], origin: 'project' };
  return { inputs: [BUNDLED_CASES_DIR], origin: 'bundled' };
}
