import type { CpuTimes, SandboxProcess } from '../sandbox/index.js';
import type { Onset } from '../types/case.js';
import type { ExitInfo, Tick } from '../types/process.js';
import type { MonitorMode } from '../modes/index.js';
import type { WindowLimits } from './output/output-window.js';

export interface MonitorOptions {
  readonly process: SandboxProcess;
  /**
   * the variant's monitor mode, durations already scaled; deadlines are absolute, from the command's start, in
   * CPU-available time (wall time less the waits for a core that the load caused, never under a third of it).
   */
  readonly mode: MonitorMode;
  /** ground truth for hang cases run on the repro command; never shown to agents. */
  readonly onset?: Onset | null;
  /** where the full output stream is copied, capped at logCapBytes; omit for none. */
  readonly logFile?: string;
  readonly logCapBytes?: number;
  /** bytes of each tick's output kept from its start and its end (default 1 KiB + 3 KiB); the rest is cut with a marker. */
  readonly window?: WindowLimits;
  /**
   * the counters of the processes whose waits for a core move the schedule (Sandbox.cpuTimes(): the attempt's); omit
   * for the command's own processes (their schedstat).
   */
  readonly cpuTimes?: () => CpuTimes;
}

/** What a monitor reports, in order: output counts, the onset (once), ticks or the timeout, and finally the exit. */
export type MonitorEvent =
  | { readonly type: 'output'; readonly bytes: number; readonly totalBytes: number }
  /** cpuWaitMs: how far the schedule's CPU-available clock had fallen behind the wall by then (absent without a schedule). */
  | { readonly type: 'onset'; readonly elapsedMs: number; readonly trigger: string; readonly cpuWaitMs?: number }
  | { readonly type: 'tick'; readonly tick: Tick }
  /** the `timeout` mode's deadline came with the command still running: the session ends it as a harness kill. */
  | { readonly type: 'timeout'; readonly elapsedMs: number; readonly afterMs: number; readonly cpuWaitMs: number }
  | { readonly type: 'exit'; readonly exit: ExitInfo; readonly tail: string; readonly totalBytes: number };

export interface Monitor {
  /** Subscribe to every event as it happens (used by the trace writer). */
  on(listener: (event: MonitorEvent) => void): void;
  /** Resolves with the next tick or the exit, whichever comes first after this call; an exit already seen resolves at once. */
  nextTickOrExit(signal?: AbortSignal): Promise<Extract<MonitorEvent, { type: 'tick' | 'exit' }>>;
  /** A tick sampled now, outside the schedule (the `poll` mode's status): the output since the last tick or status. */
  status(): Tick;
  /** ms after the start of the last byte of output; null before any. */
  readonly lastOutputMs: number | null;
  /** The last bytes of output so far (for action results), bounded; for a pty, as plain text (see stripTerminalControls). */
  tail(maxBytes?: number): string;
  /** The program asked the terminal for application cursor keys (DECCKM): arrows must be sent as `ESC O A`. */
  readonly applicationCursorKeys: boolean;
  readonly onsetSeen: boolean;
  readonly exited: boolean;
  /**
   * How far the schedule's CPU-available clock has fallen behind the wall by now (what the load took away, as the ticks
   * count it); null in a mode without a schedule (poll, wait-pid), whose ticks the agent asks for on wall time.
   */
  cpuWaitMs(): number | null;
  stop(): void;
}
