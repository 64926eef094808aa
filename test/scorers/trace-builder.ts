import { TRACE_SCHEMA_VERSION, TraceEventSchema, type EventOf, type TraceEvent } from '../../src/types/events.js';
import type { Classification } from '../../src/types/process.js';

type Start = EventOf<'attempt.start'>;
type End = EventOf<'attempt.end'>;
type KillBy = EventOf<'kill'>['by'];

export interface StartOptions {
  readonly kind?: Start['kind'];
  readonly caseId?: string;
  readonly class?: string;
  readonly variant?: string;
  readonly agent?: string;
  readonly repeat?: number;
  readonly budgets?: Partial<Start['budgets']>;
  /** the case's gate and hint counts (attempt.start fields); omitted: as in traces from before they existed. */
  readonly gates?: number;
  readonly hints?: number;
  /** (installed agents) the CLI tool's own deadlines, as attempt.start records them. */
  readonly toolTimeouts?: Record<string, number>;
}

/**
 * Builds well-formed traces for scorer tests: seq counts up, `t` never goes back
 * (each event is 10 ms after the previous one unless `at(t)` says otherwise), and every event is zod-checked.
 */
export class TraceBuilder {
  private readonly events: TraceEvent[] = [];
  private t = 0;
  private nextT: number | undefined;

  constructor(options: StartOptions = {}) {
    const kind = options.kind ?? 'hang';
    this.push({
      type: 'attempt.start',
      schemaVersion: TRACE_SCHEMA_VERSION,
      attemptId: `${options.caseId ?? 'case'}-${options.repeat ?? 1}`,
      caseId: options.caseId ?? (kind === 'hang' ? 'py-pipe-deadlock' : 'quiet-compute'),
      kind,
      class: options.class ?? (kind === 'hang' ? 'pipe-write-block' : 'quiet-compute'),
      variant: options.variant ?? 'interval-10s',
      repeat: options.repeat ?? 1,
      agent: options.agent ?? 'baseline',
      timeScale: 1,
      variantSpec: {
        name: options.variant ?? 'interval-10s',
        agent: { agent: 'baseline', hungTicks: 2 },
        monitor: { mode: 'interval', everyMs: 10_000 },
      },
      monitor: { mode: 'interval', everyMs: 10_000 },
      budgets: { tokens: 60_000, wallMs: 300_000, interruptMs: 30_000, ...options.budgets },
      ...(options.gates === undefined ? {} : { gates: options.gates }),
      ...(options.hints === undefined ? {} : { hints: options.hints }),
      ...(options.toolTimeouts === undefined ? {} : { toolTimeouts: options.toolTimeouts }),
      mechanism: 'process-group+scan',
      isolation: 'host-user',
      startedAt: '2026-01-01T00:00:00.000Z',
    });
  }

  /** The next event happens at `t` ms. */
  at(t: number): this {
    if (t < this.t) throw new Error(`trace-builder: t must not go back (${t} < ${this.t})`);
    this.nextT = t;
    return this;
  }

  private push(event: Record<string, unknown>): this {
    const t = this.events.length === 0 ? 0 : (this.nextT ?? this.t + 10);
    this.nextT = undefined;
    this.t = t;
    this.events.push(TraceEventSchema.parse({ seq: this.events.length, t, ...event }));
    return this;
  }

  /** Any other event, as the trace would hold it (zod-checked like the rest). */
  event(event: Record<string, unknown>): this {
    return this.push(event);
  }

  command(commandId: number, options: { isRepro?: boolean; command?: string } = {}): this {
    return this.push({
      type: 'command.start',
      commandId,
      command: options.command ?? 'python3 build.py',
      pid: 1000 + commandId,
      background: false,
      isRepro: options.isRepro ?? true,
    });
  }

  /** `cpuWaitMs`: how far the command's tick clock had fallen behind the wall by the onset (absent: none kept). */
  onset(commandId: number, elapsedMs = 1000, cpuWaitMs?: number): this {
    const lost = cpuWaitMs === undefined ? {} : { cpuWaitMs };
    return this.push({ type: 'onset', commandId, elapsedMs, trigger: 'output "compiling unit 3"', ...lost });
  }

  tick(commandId: number, classification: Classification, tickSeq = 1): this {
    return this.push({
      type: 'tick',
      commandId,
      tickSeq,
      mergedSeqs: [tickSeq],
      source: 'schedule',
      elapsedMs: 10_000 * tickSeq,
      sinceOutputMs: 5000,
      totalOutputBytes: 120,
      output: { text: '', bytes: 0, cutBytes: 0, foldedLines: 0, partialLine: false },
      snapshot: { source: 'unavailable', processes: [] },
      classification,
      reason: 'test',
      rendered: `tick ${tickSeq}: ${classification}`,
      renderedTokens: 40,
    });
  }

  kill(commandId: number, by: KillBy = 'agent', cpuWaitMs?: number): this {
    return this.push({
      ...(cpuWaitMs === undefined ? {} : { cpuWaitMs }),
      type: 'kill',
      commandId,
      by,
      reason: `${by} decided`,
      mechanism: 'process-group+scan',
      isolation: 'host-user',
      treeSize: 2,
      steps: [{ signal: 'SIGTERM', atMs: 0, alive: 2 }],
      escalatedToKill: false,
      goneMs: 5,
      survivors: [],
    });
  }

  exit(commandId: number, options: { exitCode?: number | null; killed?: boolean } = {}): this {
    const killed = options.killed ?? false;
    return this.push({
      type: 'command.exit',
      commandId,
      exitCode: options.exitCode === undefined ? (killed ? null : 0) : options.exitCode,
      signal: killed ? 'SIGTERM' : null,
      durationMs: 100,
      killed,
    });
  }

  write(path = 'build.py'): this {
    return this.push({ type: 'file.write', path, bytes: 42, via: 'edit' });
  }

  response(promptTokens: number, completionTokens: number, turn = 1): this {
    return this.push({
      type: 'agent.response',
      turn,
      usage: { promptTokens, completionTokens, cachedTokens: 0 },
      latencyMs: 300,
    });
  }

  limit(kind: EventOf<'limit'>['kind'], value: number, limit: number): this {
    return this.push({ type: 'limit', kind, value, limit });
  }

  verify(passed: boolean, step = 0): this {
    return this.push({
      type: 'verify',
      step,
      command: 'python3 build.py',
      passed,
      exitCode: passed ? 0 : 1,
      timedOut: false,
      durationMs: 200,
      reason: passed ? '' : 'exit 1, expected 0',
      outputTail: '',
    });
  }

  action(type: 'run' | 'wait' | 'kill' | 'input' | 'edit' | 'finish', turn = 1): this {
    const action = {
      run: { type: 'run', command: 'python3 build.py' },
      wait: { type: 'wait' },
      kill: { type: 'kill' },
      input: { type: 'input', text: 'y' },
      edit: { type: 'edit', path: 'build.py', old: 'a', new: 'b' },
      finish: { type: 'finish', summary: 'done' },
    }[type];
    return this.push({ type: 'action', turn, action });
  }

  /** One gate's start and result in a round; the gate's command id is 20000 + round * 100 + gate. */
  gate(
    round: number,
    gate: number,
    passed: boolean,
    options: { failures?: number; retries?: number; timedOut?: boolean } = {},
  ): this {
    const commandId = 20_000 + round * 100 + gate;
    this.push({ type: 'gate.start', round, gate, commandId, command: 'node test.js', timeoutMs: 20_000 });
    return this.push({
      type: 'gate.result',
      round,
      gate,
      passed,
      exitCode: passed ? 0 : options.timedOut ? null : 1,
      signal: options.timedOut ? 'SIGTERM' : null,
      timedOut: options.timedOut ?? false,
      durationMs: 300,
      reason: passed ? '' : 'exit code 1 (expected 0)',
      outputTail: '',
      failures: options.failures ?? (passed ? 0 : round),
      retries: options.retries ?? 2,
    });
  }

  hint(hint = 0, dueMs?: number): this {
    return this.push({
      type: 'hint',
      hint,
      trigger: 'after 20s',
      text: 'is it waiting for something?',
      dueMs: dueMs ?? this.t,
    });
  }

  leak(pid = 4242): this {
    return this.push({ type: 'leak', processes: [{ pid, command: 'sleep' }] });
  }

  end(fields: Partial<Omit<End, 'type' | 'seq' | 't'>> = {}): this {
    return this.push({
      type: 'attempt.end',
      outcome: 'completed',
      clean: true,
      wallMs: this.t + 10,
      agentWallMs: this.t,
      tokens: 1000,
      ...fields,
    });
  }

  build(): TraceEvent[] {
    return [...this.events];
  }

  toJsonl(): string {
    return `${this.events.map((event) => JSON.stringify(event)).join('\n')}\n`;
  }
}

export const hangTrace = (options: Omit<StartOptions, 'kind'> = {}): TraceBuilder =>
  new TraceBuilder({ ...options, kind: 'hang' });
export const controlTrace = (options: Omit<StartOptions, 'kind'> = {}): TraceBuilder =>
  new TraceBuilder({ ...options, kind: 'control' });

/** The oracle's path through a hang case: run, onset, agent kill, fix, verify, finish. */
export function solvedHang(options: Omit<StartOptions, 'kind'> = {}): TraceBuilder {
  return hangTrace(options)
    .at(100)
    .command(1)
    .at(2000)
    .onset(1)
    .at(10_000)
    .tick(1, 'blocked-on-pipe')
    .at(12_000)
    .kill(1, 'agent')
    .exit(1, { killed: true })
    .write()
    .verify(true)
    .end();
}

/** A control the agent let finish. */
export function solvedControl(options: Omit<StartOptions, 'kind'> = {}): TraceBuilder {
  return controlTrace(options)
    .at(100)
    .command(1)
    .at(10_000)
    .tick(1, 'busy-no-output')
    .at(15_000)
    .exit(1, { exitCode: 0 })
    .verify(true)
    .end();
}
