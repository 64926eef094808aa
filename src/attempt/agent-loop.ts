import type { AgentSession, Observation } from '../agents/protocol.js';
import type { TraceWriter } from '../trace/writer.js';
import type { LoopFeatures } from './loop-features.js';
import type { AttemptSession } from './session.js';
import type { StopReason } from './stop-outcome.js';

export interface AgentLoopInput {
  readonly agent: AgentSession;
  readonly session: AttemptSession;
  readonly loop: LoopFeatures;
  readonly trace: TraceWriter;
  readonly signal: AbortSignal;
  readonly maxTurns: number;
  /** the workspace's files, told with the task. */
  readonly files: readonly string[];
  /** why the sandbox was killed from outside, or null. */
  readonly lost: () => string | null;
}

/** Observation in, action out, until the agent finishes (null), the turns run out, or the sandbox is lost. */
export async function agentLoop(input: AgentLoopInput): Promise<StopReason | null> {
  const { agent, session, loop, trace, signal } = input;
  let observation: Observation = {
    type: 'task',
    issue: session.testCase.issue,
    repro: session.testCase.repro,
    files: input.files,
  };
  for (let turn = 1; turn <= input.maxTurns; turn += 1) {
    const gone = input.lost();
    if (gone !== null) return { kind: 'lost', message: gone };
    for (const text of loop.hintsWith(observation)) agent.hint?.(text);
    const action = await abortable(agent.next(observation), signal);
    if (observation.type === 'tick') {
      trace.write({
        type: 'decision',
        commandId: observation.tick.commandId,
        tickSeq: observation.tick.seq,
        action: action.type,
      });
    }
    trace.write({ type: 'action', turn, action });
    if (action.type === 'finish') {
      // A failed gate answers the finish and the attempt goes on; passed, none, or retries spent: the finish stands.
      const failure = await loop.finish(signal);
      if (failure === null) return null;
      observation = { type: 'gate', ...failure };
      continue;
    }
    observation = await session.perform(action);
    if (observation.type === 'result')
      trace.write({ type: 'action.result', turn, ok: observation.ok, message: observation.message });
  }
  return { kind: 'turns', value: input.maxTurns, limit: input.maxTurns };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
