import type { AttemptScores } from '../types/scores.js';
import { renderTick } from '../monitor/index.js';
import { countTokens } from '../agents/tokens.js';
import { runAgentPhase } from './agent-phase.js';
import { endTrace, recordAttempt, stopCommands, verifyAttempt } from './attempt-end.js';
import { planAttempt, type Attempt, type AttemptContext } from './attempt-plan.js';
import { armStops, setUpAttempt } from './attempt-setup.js';
import { AttemptSession } from './session.js';
import { settleStop, type StopReason } from './stop-outcome.js';

export {
  attemptDir,
  attemptStartEvent,
  coordinatesOf,
  type Attempt,
  type AttemptContext,
  type AttemptOptions,
} from './attempt-plan.js';

/**
 * One attempt: fresh sandbox, agent under budgets, verify, leak scan, scores. Never throws for agent or case faults.
 * Resolves to null when the harness shut down first: the trace is kept, but no score.json, so `eval --resume` re-runs it.
 * When the results folder refuses a write (full, read-only, removed) the attempt stops at once and its scores carry the
 * `fault` (written to score.json if the disk still takes it): the run cannot go on, and a resume runs it again.
 */
export async function runAttempt(attempt: Attempt, context: AttemptContext): Promise<AttemptScores | null> {
  const plan = planAttempt(attempt, context);
  const setup = await setUpAttempt(plan, context);
  const { trace, sandbox, stop } = setup;
  const stops = armStops(plan, setup, context.shutdown);
  const tickTemplate = context.agent.kind === 'installed' ? undefined : context.agent.tickTemplate;
  const tickTokens = context.agent.kind === 'installed' ? undefined : context.agent.tickTokens;
  const tickBudget = tickTokens === undefined ? undefined : { tokens: tickTokens, count: countTokens };
  const session = new AttemptSession({
    sandbox,
    trace,
    testCase: attempt.testCase,
    mode: plan.start.monitor,
    ...(attempt.variant.stdin === undefined ? {} : { stdin: attempt.variant.stdin }),
    renderTick: (tick) => renderTick(tick, tickTemplate, tickBudget),
    onset: plan.onset,
    logDir: plan.dir,
    signal: stop.signal,
  });
  const ran = await runAgentPhase({ plan, setup, session, context, onEnd: stops.agentEnded });
  const settled = settleStop({
    caught: ran.caught,
    aborted: stop.signal.aborted ? (stop.signal.reason as StopReason) : null,
    lost: sandbox.lost(),
  });
  try {
    await stopCommands(settled, ran, session, trace);
    stops.commandsEnded();
    await verifyAttempt(plan, setup, settled, context.options);
    await endTrace(setup, settled, ran, stops.cpuWaitMs());
  } finally {
    stops.commandsEnded();
    trace.close();
    await sandbox.dispose();
  }
  return recordAttempt(plan, trace, settled);
}
