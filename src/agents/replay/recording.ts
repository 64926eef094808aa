import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readTrace } from '../../trace/read.js';
import type { Action } from '../../types/actions.js';
import { HangbenchError } from '../../types/errors.js';
import type { EventOf, TraceEvent } from '../../types/events.js';
import { RUN_FILES } from '../../types/run-files.js';

/** What followed an action in a trace: its result, a tick of the command, the command's exit, or a gate that failed a finish. */
export type FollowUp = 'ok' | 'failed' | 'tick' | 'exit' | 'gate';

export interface RecordedCall {
  readonly turn: number;
  /** messages sent, from the call's agent.request. */
  readonly messages: number;
  readonly usage: EventOf<'agent.response'>['usage'];
  readonly latencyMs: number;
}

export interface RecordedTick {
  readonly seq: number;
  readonly totalOutputBytes: number;
}

export interface ReplayStep {
  readonly turn: number;
  readonly action: Action;
  /** the tick this action answered (its seq and the command's output so far); null when it followed the task, a result or an exit. */
  readonly afterTick: RecordedTick | null;
  /** model calls made before this action, reported again so token counts and budgets match. */
  readonly responses: readonly RecordedCall[];
  readonly followedBy: FollowUp;
}

export interface Recording {
  readonly file: string;
  readonly steps: readonly ReplayStep[];
  /** model calls after the last action (the one that tripped a budget, say). */
  readonly trailingResponses: readonly RecordedCall[];
  readonly limit: EventOf<'limit'> | null;
  /** the agent's error, when the recorded attempt ended in one. */
  readonly error: string | null;
}

/** `<run-dir>/<case>/<variant>/<repeat>/trace.jsonl`; the variant folder is found, and must be the only one with that repeat. */
export async function findRecording(runDir: string, caseId: string, repeat: number): Promise<string> {
  const caseDir = path.join(runDir, caseId);
  const variants = existsSync(caseDir) ? await readdir(caseDir) : [];
  const matches = variants
    .filter((variant) => existsSync(path.join(caseDir, variant, String(repeat), RUN_FILES.trace)))
    .sort();
  if (matches.length === 1) return path.join(caseDir, matches[0] as string, String(repeat), RUN_FILES.trace);
  if (matches.length === 0)
    throw new HangbenchError('AGENT', `replay: no recording of case ${caseId} repeat ${repeat} under ${runDir}`);
  throw new HangbenchError(
    'AGENT',
    `replay: ${caseId} repeat ${repeat} was recorded in several variants (${matches.join(', ')}); give --from a run with one`,
  );
}

export async function loadRecording(file: string): Promise<Recording> {
  return parseRecording(await readTrace(file), file);
}

function parseRecording(events: readonly TraceEvent[], file: string): Recording {
  const steps: Array<Omit<ReplayStep, 'followedBy'>> = [];
  const followUps: FollowUp[] = [];
  let responses: RecordedCall[] = [];
  let afterTick: RecordedTick | null = null;
  let sent = 0;
  const outputAt = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'agent.request') sent = event.messages;
    if (event.type === 'agent.response')
      responses.push({ turn: event.turn, messages: sent, usage: event.usage, latencyMs: event.latencyMs });
    if (event.type === 'tick') outputAt.set(`${event.commandId}.${event.tickSeq}`, event.totalOutputBytes);
    if (event.type === 'decision')
      afterTick = { seq: event.tickSeq, totalOutputBytes: outputAt.get(`${event.commandId}.${event.tickSeq}`) ?? 0 };
    if (event.type === 'action') {
      followUps.push('exit');
      steps.push({ turn: event.turn, action: event.action, afterTick, responses });
      responses = [];
      afterTick = null;
    }
    if (event.type === 'action.result') followUps[followUps.length - 1] = event.ok ? 'ok' : 'failed';
    if (event.type === 'gate.result' && !event.passed && event.failures <= event.retries)
      followUps[followUps.length - 1] = 'gate';
  }
  // An action answered a tick exactly when the previous one was followed by that tick.
  steps.forEach((step, index) => {
    if (step.afterTick !== null && index > 0) followUps[index - 1] = 'tick';
  });
  const limit = events.find((event): event is EventOf<'limit'> => event.type === 'limit') ?? null;
  const error = events.find((event): event is EventOf<'error'> => event.type === 'error' && event.where === 'agent');
  return {
    file,
    steps: steps.map((step, index) => ({ ...step, followedBy: followUps[index] ?? 'exit' })),
    trailingResponses: responses,
    limit,
    error: error?.message ?? null,
  };
}
