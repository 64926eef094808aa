import type { ExitInfo } from '../types/process.js';
import { foldLines } from './output/fold-lines.js';
import { LogCopy } from './output/log-copy.js';
import { createOnsetMatcher, type OnsetMatcher } from './classify/onset.js';
import { OutputIntake } from './output/output-intake.js';
import { DEFAULT_WINDOW } from './output/output-window.js';
import { scheduleFor, type ModeSchedule } from '../modes/index.js';
import { CpuAvailableClock } from './ticks/cpu-clock.js';
import { monotonicStart, ScheduleTimer } from './ticks/schedule.js';
import { TickBuilder } from './ticks/tick-builder.js';
import type { Monitor, MonitorEvent, MonitorOptions } from './types.js';
import { createWaiters } from './ticks/waiters.js';

type Listener = (event: MonitorEvent) => void;

/** How often the tree is looked at for ended processes between ticks: a zombie reaped later than that is seen with its status. */
const DEATH_LOOK_MS = 250;
type ExitEvent = Extract<MonitorEvent, { type: 'exit' }>;

/** One command's monitor as its timers, its exit and its handle share it: the output, the listeners, the state. */
interface Watch {
  readonly child: MonitorOptions['process'];
  readonly startedAt: number;
  readonly onset: OnsetMatcher;
  readonly intake: OutputIntake;
  readonly ticks: TickBuilder;
  readonly waiters: ReturnType<typeof createWaiters>;
  readonly log: LogCopy | null;
  readonly listeners: Listener[];
  readonly emit: Listener;
  /** the schedule's CPU-available clock; null in a mode without a schedule. */
  readonly clock: CpuAvailableClock | null;
  state: 'running' | 'exited' | 'stopped';
  /** set once the exit has been told (after the log is closed). */
  exitEvent: ExitEvent | null;
}

/**
 * Watches one command: drains its output, reports the onset, and follows its mode — a tick at every deadline of the
 * schedule (interval, no-output, backoff), a `timeout` event (timeout), or nothing pushed at all (poll and wait-pid,
 * where the session asks for a status with `status()`).
 */
export function createMonitor(options: MonitorOptions): Monitor {
  const child = options.process;
  // Every time here is on the monotonic performance.now() clock; startedAt may come as Date.now() (see monotonicStart).
  const startedAt = monotonicStart(child.startedAt);
  const listeners: Listener[] = [];
  const waiters = createWaiters();
  const onset = createOnsetMatcher(options.onset);
  const log = options.logFile ? new LogCopy(options.logFile, options.logCapBytes) : null;
  const emit = fanOut(listeners);
  const schedule = scheduleFor(options.mode);
  const clock = schedule === null ? null : scheduleClock(child, startedAt, options.cpuTimes);
  const reportOnset = (trigger: string, elapsedMs: number): void =>
    emit({ type: 'onset', elapsedMs, trigger, ...lostBy(clock, elapsedMs) });
  const intake = new OutputIntake(
    options.window ?? DEFAULT_WINDOW,
    onset,
    (trigger, at) => reportOnset(trigger, at - startedAt),
    log,
  );
  intake.attach(child.stdout, 'stdout');
  intake.attach(child.stderr, 'stderr');
  const ticks = new TickBuilder(child, startedAt, intake);
  const watch: Watch = {
    child,
    startedAt,
    onset,
    intake,
    ticks,
    waiters,
    log,
    listeners,
    emit,
    clock,
    state: 'running',
    exitEvent: null,
  };

  const onsetTimer = startTimedOnset(watch, reportOnset);
  const ticker = schedule === null || clock === null ? null : startSchedule(watch, schedule, clock);
  const deathLooks = setInterval(() => ticks.lookForDeaths(), DEATH_LOOK_MS);
  deathLooks.unref();
  const stopTimers = (): void => {
    clearInterval(deathLooks);
    ticker?.stop();
    if (onsetTimer) clearTimeout(onsetTimer);
  };
  const finish = (exit: ExitInfo): void => finishWatch(watch, stopTimers, exit);
  child.exited.then(finish, () => finish({ exitCode: null, signal: null, durationMs: performance.now() - startedAt }));
  return handleOf(watch, stopTimers);
}

/** Emits to every listener in order; a listener that throws is warned about once and the others still hear. */
function fanOut(listeners: readonly Listener[]): Listener {
  let warned = false;
  return (event) => {
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
}

function flushOutput(watch: Watch): void {
  const bytes = watch.intake.takeUnreported();
  if (bytes > 0) watch.emit({ type: 'output', bytes, totalBytes: watch.intake.totalBytes });
}

function lastOutputMs(watch: Watch): number | null {
  return watch.intake.lastOutputAt === null ? null : watch.intake.lastOutputAt - watch.startedAt;
}

/** The timer of a timed onset, reported at its nominal time if the command still runs then; null for no timed onset. */
function startTimedOnset(
  watch: Watch,
  reportOnset: (trigger: string, elapsedMs: number) => void,
): NodeJS.Timeout | null {
  const { onset, startedAt } = watch;
  return onset.timedAtMs === null
    ? null
    : setTimeout(
        () => {
          const trigger = watch.state === 'running' ? onset.fireTimed() : null;
          // A timed onset is ground truth at its nominal time, not whenever the timer ran.
          if (trigger !== null) reportOnset(trigger, onset.timedAtMs ?? 0);
        },
        Math.max(0, startedAt + onset.timedAtMs - performance.now()),
      );
}

/** The clock a schedule runs on: the counters the monitor is given, else the command's own processes. */
function scheduleClock(
  child: MonitorOptions['process'],
  startedAt: number,
  cpuTimes: MonitorOptions['cpuTimes'],
): CpuAvailableClock {
  return cpuTimes
    ? new CpuAvailableClock(startedAt, cpuTimes)
    : CpuAvailableClock.ofProcesses(startedAt, () => child.pids());
}

/**
 * `{ cpuWaitMs }` for a record at `elapsedMs` (ms since the start) on a schedule's clock; nothing without one, or when
 * its counters cannot be read any more (the attempt's cgroup already gone): the record then keeps wall time.
 */
function lostBy(clock: CpuAvailableClock | null, elapsedMs: number): { cpuWaitMs?: number } {
  if (clock === null) return {};
  try {
    return { cpuWaitMs: Math.round(clock.lostBy(elapsedMs)) };
  } catch {
    return {};
  }
}

/** The started timer of the mode's schedule (interval, no-output, backoff, timeout), on the command's CPU-available clock. */
function startSchedule(watch: Watch, schedule: ModeSchedule, clock: CpuAvailableClock): ScheduleTimer {
  const ticker = new ScheduleTimer(
    clock,
    schedule,
    () => lastOutputMs(watch),
    (dueMs, cpuWaitMs) => onDeadline(watch, schedule, dueMs, cpuWaitMs),
  );
  ticker.start();
  return ticker;
}

/** A deadline of a running command: the `timeout` event in that mode, else a tick, to listeners and then to waiters. */
function onDeadline(watch: Watch, schedule: ModeSchedule, dueMs: number, cpuWaitMs: number): void {
  if (watch.state !== 'running') return;
  if (schedule.action === 'timeout') {
    watch.emit({ type: 'timeout', elapsedMs: performance.now() - watch.startedAt, afterMs: dueMs, cpuWaitMs });
    return;
  }
  const tick = { ...watch.ticks.next(), dueMs, cpuWaitMs };
  flushOutput(watch);
  watch.emit({ type: 'tick', tick });
  watch.waiters.settle({ type: 'tick', tick });
}

/** On the command's exit while running: stops the timers, flushes the output, tells the exit once the log is closed. */
function finishWatch(watch: Watch, stopTimers: () => void, exit: ExitInfo): void {
  if (watch.state !== 'running') return;
  watch.state = 'exited';
  stopTimers();
  flushOutput(watch);
  const event = { type: 'exit', exit, tail: watch.intake.tail(), totalBytes: watch.intake.totalBytes } as const;
  // The log is complete on disk by the time anyone hears of the exit.
  void (watch.log ? watch.log.close() : Promise.resolve()).then(() => {
    watch.exitEvent = event;
    watch.emit(event);
    watch.waiters.settle(event);
  });
}

/** The Monitor the session holds: reads of the watch, a status on demand, and `stop`, which ends it without an exit. */
function handleOf(watch: Watch, stopTimers: () => void): Monitor {
  const { child, intake, onset, ticks, waiters, log, listeners } = watch;
  return {
    on(listener) {
      listeners.push(listener);
    },
    nextTickOrExit(signal) {
      if (watch.exitEvent) return Promise.resolve(watch.exitEvent);
      if (watch.state === 'stopped') return Promise.reject(new Error('monitor stopped before the command exited'));
      return waiters.next(signal);
    },
    status() {
      const tick = ticks.next();
      flushOutput(watch);
      return tick;
    },
    get lastOutputMs() {
      return lastOutputMs(watch);
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
      return watch.exitEvent !== null;
    },
    cpuWaitMs() {
      return lostBy(watch.clock, performance.now() - watch.startedAt).cpuWaitMs ?? null;
    },
    stop() {
      if (watch.state !== 'running') return;
      watch.state = 'stopped';
      stopTimers();
      intake.detach();
      void log?.close();
      waiters.fail(new Error('monitor stopped before the command exited'));
    },
  };
}
