import type { ObservationBody } from '../agents/protocol.js';
import { monotonicStart } from '../monitor/index.js';
import type { Monitor } from '../monitor/index.js';
import type { SandboxProcess } from '../sandbox/index.js';
import { formatDuration } from '../types/duration.js';
import type { ExitInfo, KillRecord, Tick } from '../types/process.js';

/** One command of an attempt, from `run` until its exit has reached the agent. */
export interface CommandEntry {
  readonly id: number;
  readonly process: SandboxProcess;
  readonly monitor: Monitor;
  readonly background: boolean;
  /** set when a kill is decided, before the tree is gone, so the exit it causes is marked killed. */
  killing: boolean;
  kill: KillRecord | null;
  /** settles once the kill decided is recorded in `kill`: the exit it causes can come first, and must wait for it. */
  killRecorded: Promise<void> | null;
  /** the command is over, but the agent may not have been told yet (it exited while the agent was deciding). */
  exited: boolean;
  exit: ExitInfo | null;
  /** ticks that fired since the agent last got one; delivered together so slow agents lose no output. */
  undelivered: Tick[];
}

/**
 * What ended a wait. A tick is only a wake-up: the monitor hands every tick to the session's listener (into
 * `undelivered`) before it settles a waiter, so ticks reach the session by that one channel.
 */
export type Woken = { readonly type: 'tick' } | { readonly type: 'exit' } | { readonly type: 'timer' };

/**
 * Parks until the command's next pushed tick or its exit, or — when asked — until `timeoutMs` passed or its output
 * has been still for `quietMs`: small racers, the first one wins and the others are cleared.
 */
export async function waitFor(
  entry: CommandEntry,
  until: { readonly timeoutMs?: number; readonly quietMs?: number },
  signal: AbortSignal,
): Promise<Woken> {
  const release = new AbortController();
  const onAbort = (): void => release.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const timers: NodeJS.Timeout[] = [];
  try {
    const racers: Array<Promise<Woken>> = [
      entry.monitor.nextTickOrExit(release.signal).then((event) => ({ type: event.type })),
    ];
    if (until.timeoutMs !== undefined) {
      const ms = until.timeoutMs;
      racers.push(new Promise((resolve) => timers.push(setTimeout(() => resolve({ type: 'timer' }), ms))));
    }
    if (until.quietMs !== undefined) racers.push(quiet(entry, until.quietMs, timers));
    return await Promise.race(racers);
  } finally {
    for (const timer of timers) clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    // Releases the monitor waiter if a timer won; its rejection is expected and ignored.
    if (!release.signal.aborted) release.abort(new Error('wait is over'));
  }
}

/** Resolves once no output came for `quietMs`, counted from the wait's start at the earliest. */
function quiet(entry: CommandEntry, quietMs: number, timers: NodeJS.Timeout[]): Promise<Woken> {
  const commandStart = monotonicStart(entry.process.startedAt);
  const waitStart = performance.now();
  return new Promise((resolve) => {
    const check = (): void => {
      const last = entry.monitor.lastOutputMs;
      const stillSince = Math.max(waitStart, last === null ? 0 : commandStart + last);
      const stillFor = performance.now() - stillSince;
      if (stillFor >= quietMs) resolve({ type: 'timer' });
      else timers.push(setTimeout(check, quietMs - stillFor));
    };
    check();
  });
}

/** `background command #2 exited with code 0 after 3.2s`: how a background exit is announced. */
export function exitNotice(exit: Extract<ObservationBody, { type: 'exit' }>): string {
  const how = exit.exit.signal
    ? `was ended by ${exit.exit.signal}`
    : `exited with code ${exit.exit.exitCode ?? 'unknown'}`;
  return `background command #${exit.commandId} ${how} after ${formatDuration(exit.exit.durationMs)}`;
}
