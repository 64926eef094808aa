import type { ExitInfo } from '../types/process.js';
import { foldLines } from './output/fold-lines.js';
import { LogCopy } from './output/log-copy.js';
import { createOnsetMatcher } from './classify/onset.js';
import { OutputIntake } from './output/output-intake.js';
import { DEFAULT_WINDOW } from './output/output-window.js';
import { scheduleFor } from '../modes/index.js';
import { monotonicStart, ScheduleTimer } from './ticks/schedule.js';
import { TickBuilder } from './ticks/tick-builder.js';
import type { Monitor, MonitorEvent, MonitorOptions } from './types.js';
import { createWaiters } from './ticks/waiters.js';

/**
 * Watches one command: drains its output, reports the onset, and follows its mode — a tick at every deadline of the
 * schedule (interval, no-output, backoff), a `timeout` event (timeout), or nothing pushed at all (poll and wait-pid,
 * where the session asks for a status with `status()`).
 */
export function createMonitor(options: MonitorOptions): Monitor {
  const child = options.process;
  // Every time here is on the monotonic performance.now() clock; startedAt may come as Date.now() (see monotonicStart).
  const startedAt = monotonicStart(child.startedAt);
  const listeners: Array<(event: MonitorEvent) => void> = [];
  const waiters = createWaiters();
  const onset = createOnsetMatcher(options.onset);
  const log = options.logFile ? new LogCopy(options.logFile, options.logCapBytes) : null;
  let state: 'running' | 'exited' | 'stopped' = 'running';
  let exitEvent: Extract<MonitorEvent, { type: 'exit' }> | null = null;

  let warned = false;
  const emit = (event: MonitorEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        // One broken subscriber must not stop the monitor or the others; said once per command, not once per event.
        if (!warned)
          process.emitWarning(`monitor listener threw (further throws of this command not shown): ${String(error)}`);
        warned = true;
      }
    }
  };
  const reportOnset = (trigger: string, elapsedMs: number): void => emit({ type: 'onset', elapsedMs, trigger });
  const intake = new OutputIntake(
    options.window ?? DEFAULT_WINDOW,
    onset,
    (trigger, at) => reportOnset(trigger, at - startedAt),
    log,
  );
  intake.attach(child.stdout, 'stdout');
  intake.attach(child.stderr, 'stderr');
  const ticks = new TickBuilder(child, startedAt, intake);

  const flushOutput = (): void => {
    const bytes = intake.takeUnreported();
    if (bytes > 0) emit({ type: 'output', bytes, totalBytes: intake.totalBytes });
  };

  const onsetTimer =
    onset.timedAtMs === null
      ? null
      : setTimeout(
          () => {
            const trigger = state === 'running' ? onset.fireTimed() : null;
            // A timed onset is ground truth at its nominal time, not whenever the timer ran.
            if (trigger !== null) reportOnset(trigger, onset.timedAtMs ?? 0);
          },
          Math.max(0, startedAt + onset.timedAtMs - performance.now()),
        );

  const schedule = scheduleFor(options.mode);
  const lastOutputMs = (): number | null => (intake.lastOutputAt === null ? null : intake.lastOutputAt - startedAt);
  const ticker =
    schedule === null
      ? null
      : new ScheduleTimer(startedAt, schedule, lastOutputMs, (dueMs) => {
          if (state !== 'running') return;
          if (schedule.action === 'timeout') {
            emit({ type: 'timeout', elapsedMs: performance.now() - startedAt, afterMs: dueMs });
            return;
          }
          const tick = { ...ticks.next(), dueMs };
          flushOutput();
          emit({ type: 'tick', tick });
          waiters.settle({ type: 'tick', tick });
        });
  ticker?.start();

  const finish = (exit: ExitInfo): void => {
    if (state !== 'running') return;
    state = 'exited';
    ticker?.stop();
    if (onsetTimer) clearTimeout(onsetTimer);
    flushOutput();
    const event = { type: 'exit', exit, tail: intake.tail(), totalBytes: intake.totalBytes } as const;
    // The log is complete on disk by the time anyone hears of the exit.
    void (log ? log.close() : Promise.resolve()).then(() => {
      exitEvent = event;
      emit(event);
      waiters.settle(event);
    });
  };
  child.exited.then(finish, () => finish({ exitCode: null, signal: null, durationMs: performance.now() - startedAt }));

  return {
    on(listener) {
      listeners.push(listener);
    },
    nextTickOrExit(signal) {
      if (exitEvent) return Promise.resolve(exitEvent);
      if (state === 'stopped') return Promise.reject(new Error('monitor stopped before the command exited'));
      return waiters.next(signal);
    },
    status() {
      const tick = ticks.next();
      flushOutput();
      return tick;
    },
    get lastOutputMs() {
      return lastOutputMs();
    },
    tail(maxBytes) {
      const raw = intake.tail(maxBytes);
      return child.terminal === 'pty' ? foldLines(raw).text : raw;
    },
    get applicationCursorKeys() {
      return intake.cursorKeys.application;
    },
    get onsetSeen() {
      return onset.fired;
    },
    get exited() {
      return exitEvent !== null;
    },
    stop() {
      if (state !== 'running') return;
      state = 'stopped';
      ticker?.stop();
      if (onsetTimer) clearTimeout(onsetTimer);
      intake.detach();
      void log?.close();
      waiters.fail(new Error('monitor stopped before the command exited'));
    },
  };
}
