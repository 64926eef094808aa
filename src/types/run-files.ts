/**
 * The names of the files in a run folder (results/<run>/) and in each attempt's folder (<case>/<variant>/<repeat>/),
 * spelled once: the writers, the readers (score, report, resume, merge, replay) and the docs' table agree by construction.
 */
export const RUN_FILES = {
  /** run folder: the run's options, host, versions and start order. */
  meta: 'meta.json',
  /** run folder: every attempt's scores, rates and comparisons. */
  summary: 'summary.json',
  /** run folder: harness errors, a reporter or a report that failed. */
  errors: 'errors.log',
  /** run folder: the rendered reports. */
  reportMarkdown: 'report.md',
  junit: 'junit.xml',
  reportHtml: 'report.html',
  /** attempt folder: one JSON event per line. */
  trace: 'trace.jsonl',
  /** attempt folder: the attempt's scores (absent while it runs, or when the harness stopped it). */
  score: 'score.json',
  /** attempt folder, installed agents: the CLI's own stdout and stderr. */
  agentLog: 'agent.log',
  /** attempt folder, installed agents: the model requests and responses the proxy saw. */
  modelDir: 'model',
  /** attempt folder, installed agents: the CLI's own log files, copied out of the sandbox. */
  agentLogsDir: 'agent-logs',
} as const;

/** attempt folder: a command's full output, by its command id (types/command-ids.ts). */
export function commandLogName(commandId: number): string {
  return `command-${commandId}.log`;
}

/** attempt folder: a gate's full output, by the finish round that ran it and its place in the case's gates. */
export function gateLogName(round: number, gate: number): string {
  return `gate-${round}-${gate}.log`;
}
