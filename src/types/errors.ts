/** Stable error codes; only the CLI decides how they look. */
export type HangbenchErrorCode =
  | 'CASE_INVALID'
  | 'CASE_NOT_FOUND'
  | 'FIXTURE_INVALID'
  | 'PATH_ESCAPE'
  | 'USAGE'
  | 'TRACE_INVALID'
  | 'SANDBOX'
  | 'AGENT';

export class HangbenchError extends Error {
  readonly code: HangbenchErrorCode;

  constructor(code: HangbenchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HangbenchError';
    this.code = code;
  }
}

/** A case file problem, located precisely enough for an editor to jump to it. */
export interface CaseProblem {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  /** Field path such as `budgets.wall` or `verify[0].timeout`; empty for the whole file. */
  readonly field: string;
  readonly message: string;
}

export function formatCaseProblem(problem: CaseProblem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}:${problem.column ?? 1}`;
  const field = problem.field === '' ? '' : ` ${problem.field}:`;
  return `${where}${field} ${problem.message}`;
}
