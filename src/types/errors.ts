import type { LimitKind } from './limits.js';
/**
 * Stable error codes, one per kind of failure a caller may handle; only the CLI decides how they look. USAGE, CONFIG and
 * RUN_FOLDER are the user's input (the CLI exits 2 on them), the rest the run's own failures (exit 1; INTERRUPTED 130).
 */
export type HangbenchErrorCode =
  /** a flag, an argument or a combination of them that cannot work: fix the command line */
  | 'USAGE'
  /** a file the user wrote to drive a run (--config, an adapter's YAML, a prompt set, a template) is invalid */
  | 'CONFIG'
  /** a results folder given to a command is not a run it can use: missing, corrupt, another version, or not comparable */
  | 'RUN_FOLDER'
  /** a path inside the sandbox resolves outside its workspace */
  | 'PATH_ESCAPE'
  /** a trace.jsonl that cannot be read back */
  | 'TRACE_INVALID'
  /** the sandbox cannot be set up or was lost */
  | 'SANDBOX'
  /** an agent broke its protocol or could not start */
  | 'AGENT'
  /** the model endpoint failed for good (EndpointError) */
  | 'ENDPOINT'
  /** a budget stopped the attempt (LimitExceeded) */
  | 'LIMIT'
  /** the results folder (--out) cannot take the run's files: full, read-only, not writable, removed */
  | 'RESULTS'
  /** the user stopped the run (Ctrl-C, SIGTERM) before its first attempt */
  | 'INTERRUPTED';

/** The codes that mean the user's input was wrong: the CLI exits 2 on them. */
export const INPUT_ERROR_CODES: readonly HangbenchErrorCode[] = ['USAGE', 'CONFIG', 'RUN_FOLDER'];

export class HangbenchError extends Error {
  readonly code: HangbenchErrorCode;

  constructor(code: HangbenchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HangbenchError';
    this.code = code;
  }
}

export type { LimitKind } from './limits.js';

/** A budget stopped the attempt; the runner records it as a `limit` event and still scores the attempt. */
export class LimitExceeded extends HangbenchError {
  readonly kind: LimitKind;
  readonly value: number;
  readonly limit: number;

  constructor(kind: LimitKind, value: number, limit: number, detail = '') {
    super('LIMIT', `${kind} limit: ${value} > ${limit}${detail ? ` (${detail})` : ''}`);
    this.name = 'LimitExceeded';
    this.kind = kind;
    this.value = value;
    this.limit = limit;
  }
}

/** The model endpoint failed for good (after retries): an ERROR outcome, not an agent failure. Never carries credentials. */
export class EndpointError extends HangbenchError {
  readonly status: number | null;

  constructor(message: string, status: number | null, options?: { cause?: unknown }) {
    super('ENDPOINT', message, options);
    this.name = 'EndpointError';
    this.status = status;
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
