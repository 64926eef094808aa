/**
 * The errno codes that mean the results folder (or the disk under it) refused a write: the harness's environment,
 * not the agent or a bug. The attempt that meets one ends as an ERROR and the run stops with one line.
 */
const RESULTS_FAULT_CODES = new Set([
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EACCES',
  'EPERM',
  'ENOENT',
  'ENOTDIR',
  'EIO',
  'EFBIG',
  'ESTALE',
]);

export interface ResultsFault {
  readonly code: string;
  readonly message: string;
}

/** The environment fault an error is, or null for anything else (a bug, a bad case). */
export function resultsFaultOf(error: unknown): ResultsFault | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || !RESULTS_FAULT_CODES.has(code)) return null;
  return { code, message: (error as Error).message };
}
