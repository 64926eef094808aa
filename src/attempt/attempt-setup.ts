import path from 'node:path';
import { createSandbox } from '../sandbox/index.js';
import type { Sandbox } from '../sandbox/index.js';
import { makeDirs } from '../trace/make-dirs.js';
import { resultsFaultOf } from '../trace/results-fault.js';
import { TraceWriter } from '../trace/writer.js';
import { DEFAULTS } from '../defaults.js';
import { RUN_FILES } from '../types/run-files.js';
import type { AttemptContext, AttemptPlan } from './attempt-plan.js';
import { planInstalledAgent, type InstalledAgentPlan } from './installed-agent.js';
import type { StopReason } from './stop-outcome.js';
import { FairWallClock } from './wall-clock.js';

/** The set-up phase's result: the trace begun, the sandbox made, and the one signal that stops the attempt. */
export interface AttemptSetup {
  readonly trace: TraceWriter;
  readonly sandbox: Sandbox;
  /** aborted with the StopReason that ends the agent phase (a budget, the harness, a refused write). */
  readonly stop: AbortController;
  /** an installed agent's host folders bound into the jail; null for a loop agent. */
  readonly installedPlan: InstalledAgentPlan | null;
}

/** The attempt's folder and trace, its installed agent's folders, its fresh sandbox; the start event once all stand. */
export async function setUpAttempt(plan: AttemptPlan, context: AttemptContext): Promise<AttemptSetup> {
  await makeDirs(plan.dir, context.runDir);
  const trace = new TraceWriter(path.join(plan.dir, RUN_FILES.trace));
  const stop = new AbortController();
  trace.onFault((error) =>
    stop.abort({
      kind: 'fault',
      ...(resultsFaultOf(error) ?? { code: error.code ?? 'EIO', message: error.message }),
    } satisfies StopReason),
  );
  let installedPlan: InstalledAgentPlan | null = null;
  let sandbox: Sandbox;
  try {
    installedPlan =
      context.agent.kind === 'installed'
        ? await planInstalledAgent(context.agent.installed, plan.attempt.testCase)
        : null;
    sandbox = await createSandbox({
      attemptId: plan.sandboxId,
      workspaceSource: path.join(plan.attempt.testCase.fixtureDir, 'workspace'),
      timeScale: plan.scale,
      capabilities: context.capabilities,
      ...(installedPlan ? { binds: installedPlan.binds } : {}),
    });
  } catch (error) {
    trace.close();
    throw error;
  }
  trace.write(plan.start);
  reportAgentUp(trace, context.onAgentUp, installedPlan !== null);
  if (context.onTick) {
    const onTick = context.onTick;
    trace.onEvent((event) => {
      if (event.type === 'tick') onTick(plan.attempt, event);
    });
  }
  return { trace, sandbox, stop, installedPlan };
}

/** An installed CLI is up at its first model request, a note (its exit), a limit or the attempt's end; any other agent at once. */
function reportAgentUp(trace: TraceWriter, onAgentUp: (() => void) | undefined, installed: boolean): void {
  if (!onAgentUp) return;
  if (!installed) return onAgentUp();
  trace.onEvent((event) => {
    const { type } = event;
    if (type === 'model.request' || type === 'agent.note' || type === 'limit' || type === 'attempt.end') onAgentUp();
  });
}

/** The attempt's clocks: the wall budget and the shutdown end the agent phase; the hard stop ends every command. */
export interface AttemptStops {
  /** the agent phase is over: neither the wall budget nor a shutdown stops it any more. */
  agentEnded(): void;
  /** the commands are stopped: the hard stop is not needed. */
  commandsEnded(): void;
  /** ms the wall budget moved because the attempt's processes waited for a CPU (wall-clock.ts). */
  cpuWaitMs(): number;
}

export function armStops(plan: AttemptPlan, setup: AttemptSetup, shutdown: AbortSignal): AttemptStops {
  const { stop, sandbox } = setup;
  const { wallMs } = plan.start.budgets;
  const { hardStopGraceMs } = DEFAULTS.shutdown;
  // The budget holds whatever else broke: should the graceful kill not end every command, SIGKILL them all at once.
  let hardStop = setTimeout(() => sandbox.killNow(), wallMs * DEFAULTS.wallCpuWaitCap + hardStopGraceMs);
  const wall = new FairWallClock(
    wallMs,
    () => sandbox.cpuTimes(),
    ({ elapsedMs, cpuWaitMs }) => {
      clearTimeout(hardStop);
      hardStop = setTimeout(() => sandbox.killNow(), hardStopGraceMs);
      stop.abort({ kind: 'wall', value: elapsedMs, limit: wallMs, cpuWaitMs } satisfies StopReason);
    },
  );
  const onShutdown = () => stop.abort({ kind: 'harness' } satisfies StopReason);
  shutdown.addEventListener('abort', onShutdown, { once: true });
  if (shutdown.aborted) onShutdown();
  return {
    agentEnded: () => {
      wall.stop();
      shutdown.removeEventListener('abort', onShutdown);
    },
    commandsEnded: () => clearTimeout(hardStop),
    cpuWaitMs: () => Math.round(wall.credit()),
  };
}
