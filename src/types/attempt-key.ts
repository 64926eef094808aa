/** What names one attempt of a run: an attempt.start event, a score and a summary row all have these fields. */
export interface AttemptCoordinates {
  readonly caseId: string;
  readonly variant: string;
  readonly repeat: number;
}

/**
 * `case/variant/repeat`: an attempt within its run. It is the attempt's folder under the run folder, the trace's and
 * the reporters' attemptId, and the key of the HTML report's timeline and live view.
 */
export function attemptKey(attempt: AttemptCoordinates): string {
  return `${attempt.caseId}/${attempt.variant}/${attempt.repeat}`;
}

/**
 * The attempt on this machine, unique among concurrent runs: the sandbox marks the attempt's processes with it
 * (HANGBENCH_ATTEMPT) and names its cgroups and temporary folders after it.
 */
export function sandboxAttemptId(runId: string, attempt: AttemptCoordinates): string {
  return `${runId}.${attemptKey(attempt)}`.replace(/[^A-Za-z0-9_.-]/g, '_');
}
