import path from 'node:path';
import type { GateFailure } from '../agents/protocol.js';
import { createMonitor } from '../monitor/index.js';
import { stripTerminalControls } from '../monitor/index.js';
import type { Sandbox } from '../sandbox/index.js';
import type { Gate } from '../types/case.js';
import type { TraceWriter } from '../trace/writer.js';
import { collect, unmetExpectation } from './verify.js';
import { DEFAULTS } from '../defaults.js';
import type { Terminal } from '../types/terminal.js';
import { COMMAND_IDS } from '../types/command-ids.js';
import { gateLogName } from '../types/run-files.js';

export type { GateFailure } from '../agents/protocol.js';

/** gate commands get ids apart from the agent's (1…) and verify's (10000…), so traces stay unambiguous. */
export const GATE_COMMAND_BASE = COMMAND_IDS.gate;
const TAIL_BYTES = DEFAULTS.tailBytes;

export interface GateSettings {
  readonly timeScale: number;
  /** floor of a scaled gate timeout, as for verify: process start-up must still fit. */
  readonly floorMs: number;
  readonly terminal: Terminal;
  /** where each gate's full output is copied (gate-<round>-<gate>.log). */
  readonly logDir: string;
}

/** passed: the finish stands; failed: the agent hears of it and goes on; accepted: it failed with no retries left, the finish stands. */
export type GateVerdict =
  | { readonly kind: 'passed' }
  | { readonly kind: 'failed'; readonly failure: GateFailure }
  | { readonly kind: 'accepted'; readonly failure: GateFailure };

/**
 * Runs the case's gates each time the agent says finish, in order, stopping at the first that fails, and keeps
 * every gate's failure count against its retries. Each gate is a `gate.start`/`gate.result` pair in the trace.
 */
export class GateKeeper {
  private round = 0;
  private nextCommandId = GATE_COMMAND_BASE;
  private readonly gates: readonly Gate[];
  private readonly sandbox: Sandbox;
  private readonly trace: TraceWriter;
  private readonly settings: GateSettings;
  private readonly failures: number[];

  constructor(gates: readonly Gate[], sandbox: Sandbox, trace: TraceWriter, settings: GateSettings) {
    this.gates = gates;
    this.sandbox = sandbox;
    this.trace = trace;
    this.settings = settings;
    this.failures = gates.map(() => 0);
  }

  get rounds(): number {
    return this.round;
  }

  /** One round; the signal (the attempt's budgets, harness shutdown) kills a running gate and rejects with its reason. */
  async onFinish(signal?: AbortSignal): Promise<GateVerdict> {
    if (this.gates.length === 0) return { kind: 'passed' };
    this.round += 1;
    for (const [index, gate] of this.gates.entries()) {
      const result = await this.runGate(gate, index, signal);
      const failures = (this.failures[index] ?? 0) + (result.passed ? 0 : 1);
      this.failures[index] = failures;
      this.trace.write({
        type: 'gate.result',
        round: this.round,
        gate: index,
        ...result,
        failures,
        retries: gate.retries,
      });
      if (signal?.aborted) throw signal.reason;
      if (result.passed) continue;
      const failure: GateFailure = {
        gate: index,
        command: gate.run,
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        reason: result.reason,
        output: result.outputTail,
        retriesLeft: Math.max(0, gate.retries - failures),
      };
      return failures > gate.retries ? { kind: 'accepted', failure } : { kind: 'failed', failure };
    }
    return { kind: 'passed' };
  }

  private async runGate(gate: Gate, index: number, signal: AbortSignal | undefined): Promise<GateRun> {
    const { settings, trace } = this;
    const timeoutMs = Math.max(settings.floorMs, gate.timeout * settings.timeScale);
    const commandId = this.nextCommandId++;
    trace.write({ type: 'gate.start', round: this.round, gate: index, commandId, command: gate.run, timeoutMs });
    const started = performance.now();
    const process = this.sandbox.spawn(gate.run, { commandId, terminal: settings.terminal });
    process.stdin.on('error', () => undefined);
    // Under a monitor like any command (output drained, logged, its tail kept), but pushing no ticks: a gate has its timeout.
    const monitor = createMonitor({
      process,
      mode: { mode: 'wait-pid' },
      logFile: path.join(settings.logDir, gateLogName(this.round, index)),
    });
    const stdout = collect(process.stdout);
    const stderr = collect(process.stderr);
    // A gate's time is the agent's, bounded by the wall budget: a plain timeout (verify's is in CPU-available time).
    const ended = await raceExit(process.exited, timeoutMs, signal);
    if (ended !== 'exited') {
      const decidedAt = trace.now();
      const why =
        ended === 'timeout' ? `gate ${index} ran past ${Math.round(timeoutMs)}ms` : 'attempt stopped during a gate';
      const record = await process.kill('harness', why, 'SIGTERM');
      trace.write({ type: 'kill', commandId, ...record }, decidedAt);
    }
    const exit = await process.exited;
    monitor.stop();
    // On a pty everything arrives on stdout; patterns match its text, as in verify.
    const out = settings.terminal === 'pty' ? stripTerminalControls(stdout.text()) : stdout.text();
    const err = stderr.text();
    const timedOut = ended === 'timeout';
    const reason =
      ended === 'aborted'
        ? 'the attempt stopped while the gate ran'
        : timedOut
          ? `timed out after ${Math.round(timeoutMs)}ms (killed: it was still running)`
          : unmetExpectation(gate, exit, out, err);
    return {
      passed: reason === '',
      exitCode: exit.exitCode,
      signal: exit.signal,
      timedOut,
      durationMs: Math.round(performance.now() - started),
      reason,
      outputTail: monitor.tail(TAIL_BYTES),
    };
  }
}

interface GateRun {
  readonly passed: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly reason: string;
  readonly outputTail: string;
}

function raceExit(
  exited: Promise<unknown>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<'exited' | 'timeout' | 'aborted'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    const onAbort = () => finish('aborted');
    const finish = (how: 'exited' | 'timeout' | 'aborted') => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(how);
    };
    if (signal?.aborted) return finish('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    void exited.then(() => finish('exited'));
  });
}
