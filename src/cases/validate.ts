import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Case } from '../types/case.js';
import type { CaseProblem } from '../types/errors.js';
import { loadCases } from './load-cases.js';
import { applySolutionPatch } from '../attempt/patch.js';

export interface ValidationReport {
  readonly valid: readonly Case[];
  readonly problems: readonly CaseProblem[];
  readonly checkedFiles: number;
}

/** Checks case files and their fixtures (workspace/, hidden/, solution.patch applies) without running anything. */
export async function validateCases(inputs: readonly string[], cwd: string): Promise<ValidationReport> {
  const loaded = await loadCases(inputs, cwd);
  const problems: CaseProblem[] = [...loaded.problems];
  const valid: Case[] = [];
  for (const testCase of loaded.cases) {
    const fixtureProblems = await checkFixture(testCase);
    problems.push(...fixtureProblems);
    if (fixtureProblems.length === 0) valid.push(testCase);
  }
  return { valid, problems, checkedFiles: loaded.files.length };
}

async function checkFixture(testCase: Case): Promise<CaseProblem[]> {
  const problems: CaseProblem[] = [];
  const missing = async (name: string) => access(path.join(testCase.fixtureDir, name)).then(() => false, () => true);
  if (await missing('hidden')) {
    problems.push({ file: testCase.file, field: 'fixture', message: `${testCase.fixtureDir} has no hidden/ folder (the verify files copied over the workspace)` });
  }
  if (await missing('solution.patch')) {
    problems.push({ file: testCase.file, field: 'fixture', message: `${testCase.fixtureDir} has no solution.patch (the oracle's fix)` });
  } else {
    const patch = await applySolutionPatch(testCase.fixtureDir);
    if (!patch.ok) problems.push({ file: testCase.file, field: 'fixture', message: patch.error });
  }
  return problems;
}
