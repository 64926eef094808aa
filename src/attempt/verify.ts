import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { stripTerminalControls } from '../monitor/index.js';
import type { CommandRunner } from '../sandbox/index.js';
import type { VerifyStep } from '../types/case.js';
import type { ExitInfo } from '../types/process.js';
import type { TraceWriter } from '../trace/writer.js';
import { waitFairly } from './cpu-fair-wait.js';
import { DEFAULTS } from '../defaults.js';
import type { Terminal } from '../types/terminal.js';
import { COMMAND_IDS } from '../types/command-ids.js';

const COLLECT_LIMIT = 1024 * 1024;
const TAIL_BYTES = DEFAULTS.tailBytes;
/** verify commands get ids far from the agent's so traces stay unambiguous. */
const VERIFY_COMMAND_BASE = COMMAND_IDS.verify;

export interface VerifySettings {
  readonly timeScale: number;
  readonly floorMs: number;
  /** the case's terminal: a step runs the way the repro does, so a pager or editor hang still shows (default pipe). */
  readonly terminal?: Terminal;
}

/**
 * What verify lays over the workspace, in order: `shared-hidden/` beside the fixture, when there is one (helpers
 * every hidden check of a fixture library imports), then the fixture's own hidden/.
 */
export function hiddenLayers(fixtureDir: string): string[] {
  const shared = path.join(fixtureDir, '..', 'shared-hidden');
  return [...(existsSync(shared) ? [shared] : []), path.join(fixtureDir, 'hidden')];
}

/** Runs hidden verify steps where Sandbox.forVerify says (hidden/ already over the workspace); each result is a `verify` event. */
export async function runVerify(
  sandbox: CommandRunner,
  steps: readonly VerifyStep[],
  trace: TraceWriter,
  settings: VerifySettings,
): Promise<boolean> {
  let allPassed = true;
  for (const [index, step] of steps.entries()) {
    const passed = await runStep(sandbox, step, index, trace, settings);
    allPassed &&= passed;
  }
  return allPassed;
}

async function runStep(
  sandbox: CommandRunner,
  step: VerifyStep,
  index: number,
  trace: TraceWriter,
  settings: VerifySettings,
): Promise<boolean> {
  const timeoutMs = Math.max(settings.floorMs, step.timeout * settings.timeScale);
  const commandId = VERIFY_COMMAND_BASE + index;
  const started = performance.now();
  const process = sandbox.spawn(step.run, { commandId, terminal: settings.terminal ?? 'pipe' });
  process.stdin.on('error', () => undefined);
  const stdout = collect(process.stdout);
  const stderr = collect(process.stderr);
  const { timedOut, cpuWaitMs, deadlineMs, cpuMs, saturated } = await waitFairly(process, timeoutMs);
  if (timedOut) {
    const decidedAt = trace.now();
    const record = await process.kill('verify-timeout', `verify step ${index} ran past ${deadlineMs}ms`, 'SIGTERM');
    trace.write({ type: 'kill', commandId, ...record }, decidedAt);
  }
  const exit = await process.exited;
  // On a pty everything the terminal shows arrives on stdout; patterns match its text (\n line ends, no escapes).
  const out = settings.terminal === 'pty' ? stripTerminalControls(stdout.text()) : stdout.text();
  const err = stderr.text();
  const reason = timedOut
    ? `${timeoutText(timeoutMs, cpuWaitMs, deadlineMs)} ${saturated ? SATURATED : '(still running: the hang is not fixed)'}`
    : unmetExpectation(step, exit, out, err);
  trace.write({
    type: 'verify',
    step: index,
    command: step.run,
    passed: reason === '',
    exitCode: exit.exitCode,
    timedOut,
    durationMs: Math.round(performance.now() - started),
    cpuWaitMs,
    cpuMs,
    ...(timedOut && saturated ? { saturated: true as const, load1: Number(loadavg()[0]!.toFixed(2)) } : {}),
    reason,
    outputTail: (out + err).slice(-TAIL_BYTES),
  });
  return reason === '';
}

/** A timeout that the load may explain: the wait for a CPU filled its cap, so the step never got its time. */
const SATURATED =
  '(still running, but the machine stayed saturated: its processes waited for a CPU as long as the cap allows, so this timeout is the load, not a verdict on the fix)';

/** A timeout in words: what the step was given and, on a loaded machine, the time added while it waited for a CPU. */
export function timeoutText(timeoutMs: number, cpuWaitMs: number, deadlineMs: number): string {
  if (deadlineMs > Math.round(timeoutMs))
    return `timed out after ${Math.round(timeoutMs)}ms of CPU-available time (plus ${cpuWaitMs}ms its processes waited for a CPU, ${deadlineMs}ms in all)`;
  const waited = cpuWaitMs >= 1 ? ` (its processes waited ${cpuWaitMs}ms of it for a CPU)` : '';
  return `timed out after ${Math.round(timeoutMs)}ms${waited}`;
}

/** What a finished step (or gate) got wrong against what it expects — exit code, then stdout, then stderr — or ''. */
export function unmetExpectation(
  step: Pick<VerifyStep, 'exit' | 'stdout' | 'stderr'>,
  exit: ExitInfo,
  out: string,
  err: string,
): string {
  if (exit.exitCode !== step.exit) return `exit code ${exit.exitCode ?? exit.signal} (expected ${step.exit})`;
  if (step.stdout !== undefined && !matches(out, step.stdout)) return `stdout does not match ${step.stdout}`;
  if (step.stderr !== undefined && !matches(err, step.stderr)) return `stderr does not match ${step.stderr}`;
  return '';
}

/** `/regex/flags` is a regular expression; anything else a literal substring. */
export function matches(text: string, pattern: string): boolean {
  const regex = /^\/(.*)\/([dgimsuy]*)$/s.exec(pattern);
  return regex ? new RegExp(regex[1]!, regex[2]).test(text) : text.includes(pattern);
}

/** The first MiB of a stream's output, as text once it is over. */
export function collect(stream: NodeJS.ReadableStream): { text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (size >= COLLECT_LIMIT) return;
    chunks.push(chunk);
    size += chunk.length;
  });
  return { text: () => Buffer.concat(chunks).toString('utf8') };
}
