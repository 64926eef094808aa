import type { Sandbox } from '../sandbox/index.js';
import type { Case } from '../types/case.js';
import { GateKeeper, type GateFailure } from './gates.js';
import { HintSchedule } from './hint-schedule.js';
import type { TraceWriter } from '../trace/writer.js';

export interface LoopFeatureDeps {
  readonly testCase: Case;
  readonly sandbox: Sandbox;
  readonly trace: TraceWriter;
  readonly timeScale: number;
  /** floor of a scaled gate timeout (the verify floor). */
  readonly floorMs: number;
  readonly logDir: string;
  /** the variant's --hints switch: off delivers none (the case still has them, so the attempt counts as unhinted). */
  readonly hints: boolean;
}

/**
 * The loop features of issue 12 for one attempt, so the agent loop stays a loop: hints due with the next
 * observation (each a `hint` event), and the gates a finish must pass.
 */
export class LoopFeatures {
  private readonly trace: TraceWriter;
  private readonly gates: GateKeeper;
  private readonly schedule: HintSchedule;

  constructor(deps: LoopFeatureDeps) {
    this.trace = deps.trace;
    const { testCase } = deps;
    this.gates = new GateKeeper(testCase.gates, deps.sandbox, deps.trace, {
      timeScale: deps.timeScale,
      floorMs: deps.floorMs,
      terminal: testCase.terminal,
      logDir: deps.logDir,
    });
    this.schedule = new HintSchedule(deps.hints ? testCase.hints : [], deps.timeScale);
    deps.trace.onEvent((event) => {
      if (event.type === 'onset') this.schedule.noteOnset(event.t);
    });
  }

  /** The texts of the hints that ride on this observation, in order; each is recorded as it is delivered. */
  hintsWith(observation: { readonly type: string }): string[] {
    const now = this.trace.now();
    if (observation.type === 'tick') this.schedule.noteTick(now);
    return this.schedule.take(now).map((due) => {
      this.trace.write({ type: 'hint', ...due });
      return due.text;
    });
  }

  /** The agent said finish: null when it stands (gates passed, none, or retries spent), else the gate that failed. */
  async finish(signal: AbortSignal): Promise<GateFailure | null> {
    const verdict = await this.gates.onFinish(signal);
    return verdict.kind === 'failed' ? verdict.failure : null;
  }
}
