import path from 'node:path';
import type { Action } from '../../types/actions.js';
import { HangbenchError, LimitExceeded } from '../../types/errors.js';
import type { AgentContext, LoopAgentFactory, AgentSession, Observation } from '../protocol.js';
import type { Tick } from '../../types/process.js';
import {
  findRecording,
  loadRecording,
  type FollowUp,
  type RecordedCall,
  type RecordedTick,
  type Recording,
  type ReplayStep,
} from './recording.js';

/**
 * Re-issues the actions of an earlier run against a fresh sandbox, for deterministic re-runs.
 * An action that answered tick k of a command is issued at tick k again, once the command has also
 * printed as much output as it had then (waits are inserted meanwhile); one that followed an exit waits for the exit. The recording's token
 * usage is reported again, so budgets and token scores match; no model is called. Where the
 * fresh run behaves differently from the recording, an `agent.note` of kind `divergence` says how.
 */
export function replayAgent(runDir: string, cwd = process.cwd()): LoopAgentFactory {
  const from = path.resolve(cwd, runDir);
  return { name: 'replay', create: (context) => new ReplaySession(from, context) };
}

class ReplaySession implements AgentSession {
  private readonly from: string;
  private readonly context: AgentContext;
  private recording: Recording | null = null;
  private index = 0;
  /** the step just issued, until the observation that follows it was compared with the recording. */
  private unchecked: ReplayStep | null = null;
  private divergences = 0;

  constructor(from: string, context: AgentContext) {
    this.from = from;
    this.context = context;
  }

  async next(observation: Observation): Promise<Action> {
    const recording = (this.recording ??= await loadRecording(
      await findRecording(this.from, this.context.testCase.id, this.context.repeat),
    ));
    this.compare(observation);
    const step = recording.steps[this.index];
    if (!step) return this.afterLastStep(recording, observation);
    // Recorded after an exit or a result: let the command run on, as the recorded agent did. After tick k: wait for tick k.
    if (observation.type === 'tick' && (step.afterTick === null || !this.caughtUp(step, observation.tick)))
      return { type: 'wait' };
    return this.issue(step);
  }

  /**
   * Tick k has come and the command has printed as much as it had then (so an onset seen in the
   * recording is seen again). Output that never catches up is waited for only so long: then a divergence.
   */
  private caughtUp(step: ReplayStep, tick: Tick): boolean {
    const recorded = step.afterTick as RecordedTick;
    if (tick.seq < recorded.seq) return false;
    if (tick.totalOutputBytes >= recorded.totalOutputBytes) return true;
    if (tick.seq < recorded.seq * 2 + 3) return false;
    this.divergences += 1;
    this.context.reporter.note?.(
      'divergence',
      `turn ${step.turn} (${step.action.type}) answered tick ${recorded.seq} after ${recorded.totalOutputBytes} bytes of output in the recording; now ${tick.totalOutputBytes} bytes by tick ${tick.seq}, issuing it anyway`,
    );
    return true;
  }

  private issue(step: ReplayStep): Action {
    for (const response of step.responses) this.replayResponse(response);
    this.index += 1;
    this.unchecked = step;
    if (step.action.type !== 'finish') return step.action;
    const note = this.divergences === 0 ? 'no divergence' : `${this.divergences} divergences, see agent.note events`;
    return { type: 'finish', summary: `${step.action.summary} [replay of ${this.recording?.file}: ${note}]` };
  }

  /** The first observation after an issued action is checked against what followed it in the recording. */
  private compare(observation: Observation): void {
    const step = this.unchecked;
    this.unchecked = null;
    if (!step || observation.type === 'task') return;
    const now: FollowUp = observation.type === 'result' ? (observation.ok ? 'ok' : 'failed') : observation.type;
    if (now === step.followedBy) return;
    const detail =
      observation.type === 'result' ? ` (${observation.message})` : now === 'tick' ? '; waiting for the exit' : '';
    this.divergences += 1;
    this.context.reporter.note?.(
      'divergence',
      `turn ${step.turn} (${step.action.type}) was followed by ${describe(step.followedBy)} in the recording, now by ${describe(now)}${detail}`,
    );
  }

  private afterLastStep(recording: Recording, observation: Observation): Promise<Action> | Action {
    for (const response of recording.trailingResponses) this.replayResponse(response);
    if (this.context.signal.aborted)
      return { type: 'finish', summary: 'replay: the recorded budget stop happened again' };
    if (recording.error !== null)
      throw new HangbenchError(
        'AGENT',
        `replay: the recorded attempt ended in an error at this point: ${recording.error.split('\n')[0]}`,
      );
    const limit = recording.limit;
    if (limit?.kind === 'tokens')
      throw new LimitExceeded('tokens', limit.value, limit.limit, 'replayed from the recording');
    if (limit?.kind === 'turns' || (limit?.kind === 'wall' && observation.type === 'tick')) return { type: 'wait' };
    // The recording ran into its wall budget here; so does the replay (the runner aborts the pending call).
    return new Promise<Action>(() => undefined);
  }

  private replayResponse(response: RecordedCall): void {
    this.context.reporter.request(response.turn, response.messages);
    this.context.reporter.response(response.turn, response.usage, response.latencyMs);
  }
}

function describe(followUp: FollowUp): string {
  return {
    ok: 'a successful result',
    failed: 'a failed result',
    tick: 'a tick',
    exit: 'an exit',
    gate: 'a failed gate',
  }[followUp];
}
