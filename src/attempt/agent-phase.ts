import { rm } from 'node:fs/promises';
import type { AgentSession, InstalledAgentFactory, LoopAgentFactory, OracleView } from '../agents/protocol.js';
import type { Case } from '../types/case.js';
import type { KillDecider } from '../types/process.js';
import { DEFAULTS } from '../defaults.js';
import { agentLoop } from './agent-loop.js';
import type { AttemptContext, AttemptPlan } from './attempt-plan.js';
import type { AttemptSetup } from './attempt-setup.js';
import { runInstalledAgent, type InstalledRunResult } from './installed-agent.js';
import { LoopFeatures } from './loop-features.js';
import { applySolutionPatch } from './patch.js';
import type { AttemptSession } from './session.js';
import { stopReasonOf, type StopReason } from './stop-outcome.js';
import { listWorkspace } from './workspace-files.js';

export interface AgentPhaseInput {
  readonly plan: AttemptPlan;
  readonly setup: AttemptSetup;
  readonly session: AttemptSession;
  readonly context: AttemptContext;
  /** called as the agent phase ends, before the agent is closed: the wall budget and a shutdown no longer stop it. */
  readonly onEnd: () => void;
}

/** What the agent phase leaves: why it ended (null: the agent finished), the tokens spent, and what is left to end. */
export interface AgentPhaseResult {
  readonly caught: StopReason | null;
  readonly tokens: number;
  readonly agentWallMs: number;
  /** ends what the agent itself left (an installed CLI, its endpoint and proxy, its host folders) before the commands are killed. */
  release(killer: KillDecider, why: string): Promise<void>;
}

/** The agent phase, one implementation per kind of agent factory. */
export async function runAgentPhase(input: AgentPhaseInput): Promise<AgentPhaseResult> {
  const agent = input.context.agent;
  const started = performance.now();
  const ran = agent.kind === 'installed' ? await runInstalledPhase(agent, input) : await runLoopPhase(agent, input);
  return { ...ran, agentWallMs: performance.now() - started };
}

type PhaseRun = Omit<AgentPhaseResult, 'agentWallMs'>;

/** An observation-in, action-out agent: the agent loop until it finishes or a stop aborts it. */
async function runLoopPhase(factory: LoopAgentFactory, input: AgentPhaseInput): Promise<PhaseRun> {
  const { plan, setup, session, context } = input;
  const { testCase, variant } = plan.attempt;
  const { trace, sandbox, stop } = setup;
  const { budgets, monitor } = plan.start;
  const { options } = context;
  const loop = new LoopFeatures({
    testCase,
    sandbox,
    trace,
    timeScale: plan.scale,
    floorMs: options.verifyFloorMs,
    logDir: plan.dir,
    hints: variant.hints ?? DEFAULTS.hints,
  });
  let tokens = 0;
  let caught: StopReason | null = null;
  let agent: AgentSession | undefined;
  try {
    agent = factory.create({
      testCase,
      signal: stop.signal,
      repeat: plan.attempt.repeat,
      budgets,
      monitor,
      timeScale: plan.scale,
      reporter: {
        request: (turn, messages) => trace.write({ type: 'agent.request', turn, messages }),
        response: (turn, usage, latencyMs) => {
          trace.write({ type: 'agent.response', turn, usage, latencyMs });
          tokens += usage.promptTokens + usage.completionTokens;
          if (tokens > budgets.tokens)
            stop.abort({ kind: 'tokens', value: tokens, limit: budgets.tokens } satisfies StopReason);
        },
        note: (kind, message) => trace.write({ type: 'agent.note', kind, message }),
        egress: (record) => trace.write({ type: 'egress', ...record }),
      },
      ...(factory.privileged ? { oracle: oracleView(testCase, session) } : {}),
    });
    const files = await listWorkspace(sandbox.workspace);
    caught = await agentLoop({
      agent,
      session,
      loop,
      trace,
      signal: stop.signal,
      maxTurns: options.maxTurns,
      files,
      lost: () => sandbox.lost(),
    });
  } catch (error) {
    caught = stop.signal.aborted ? (stop.signal.reason as StopReason) : stopReasonOf(error);
  } finally {
    input.onEnd();
    await agent
      ?.close?.()
      .catch((error: unknown) => trace.write({ type: 'error', where: 'agent.close', message: String(error) }));
  }
  return { caught, tokens, release: async () => undefined };
}

/** An installed agent CLI: started in the sandbox, its commands observed, until it exits or a stop ends it. */
async function runInstalledPhase(factory: InstalledAgentFactory, input: AgentPhaseInput): Promise<PhaseRun> {
  const { plan, setup, session } = input;
  const { trace, sandbox, stop } = setup;
  const hostPlan = setup.installedPlan;
  if (hostPlan === null) throw new Error('an installed agent attempt was set up without its host folders');
  let run: InstalledRunResult | null = null;
  let tokens = 0;
  let caught: StopReason | null = null;
  try {
    run = await runInstalledAgent({
      agent: factory.installed,
      plan: hostPlan,
      sandbox,
      session,
      trace,
      tokenBudget: plan.start.budgets.tokens,
      logDir: plan.dir,
      signal: stop.signal,
      onOverBudget: (value, limit) => stop.abort({ kind: 'tokens', value, limit } satisfies StopReason),
    });
    tokens = run.tokens;
    if (stop.signal.aborted) throw stop.signal.reason;
  } catch (error) {
    caught = stop.signal.aborted ? (stop.signal.reason as StopReason) : stopReasonOf(error);
  } finally {
    input.onEnd();
  }
  const started = run;
  return {
    caught,
    tokens,
    release: started
      ? (killer, why) => started.shutdown(killer, why)
      : () => rm(hostPlan.hostDir, { recursive: true, force: true }),
  };
}

function oracleView(testCase: Case, session: AttemptSession): OracleView {
  return {
    testCase,
    onsetSeen: () => session.onsetHappened,
    patchedFiles: async () => {
      const outcome = await applySolutionPatch(testCase.fixtureDir);
      if (!outcome.ok) throw new Error(outcome.error);
      return outcome.files;
    },
  };
}
