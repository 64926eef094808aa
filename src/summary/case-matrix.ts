import type { AttemptScores } from '../types/scores.js';
import type { CaseMatrixRow } from './schema.js';

/** Per case, per variant name: solved out of the repeats it ran. Hang cases first, then by caseId. */
export function summarizeCaseMatrix(attempts: readonly AttemptScores[]): CaseMatrixRow[] {
  const rows = new Map<
    string,
    {
      caseId: string;
      class: string;
      kind: AttemptScores['kind'];
      cells: Record<string, { solved: number; total: number }>;
    }
  >();
  for (const attempt of attempts) {
    const row = rows.get(attempt.caseId) ?? {
      caseId: attempt.caseId,
      class: attempt.class,
      kind: attempt.kind,
      cells: {},
    };
    const cell = row.cells[attempt.variant] ?? { solved: 0, total: 0 };
    row.cells[attempt.variant] = { solved: cell.solved + (attempt.scores.solved ? 1 : 0), total: cell.total + 1 };
    rows.set(attempt.caseId, row);
  }
  return [...rows.values()].sort((a, b) => {
    if (a.kind !== b.kind) return a.kind === 'hang' ? -1 : 1;
    return a.caseId < b.caseId ? -1 : a.caseId > b.caseId ? 1 : 0;
  });
}
