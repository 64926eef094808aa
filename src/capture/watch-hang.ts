import path from 'node:path';
import { createMonitor } from '../monitor/index.js';
import { createSandbox } from '../sandbox/index.js';
import type { HostCapabilities } from '../sandbox/index.js';
import { looksHung, type Tick } from '../types/process.js';
import type { Terminal } from '../types/terminal.js';

export interface WatchOptions {
  readonly command: string;
  readonly workspace: string;
  readonly terminal: Terminal;
  readonly intervalMs: number;
  /** hung ticks in a row that end the watch. */
  readonly hungTicks: number;
  readonly maxMs: number;
  readonly capabilities: HostCapabilities;
  readonly logDir: string;
  /** the user's Ctrl-C: stop watching and draft from what was seen. */
  readonly stop: AbortSignal;
  readonly onTick?: (tick: Tick) => void;
}

/** How the watch ended: hung N ticks in a row, stopped by the user, out of time, or the command exited by itself. */
export type WatchEnd = 'hung' | 'stopped' | 'max' | 'exited';

export interface WatchResult {
  readonly end: WatchEnd;
  readonly ticks: readonly Tick[];
  readonly exit: { readonly exitCode: number | null; readonly signal: string | null } | null;
  /** the output's last bytes, as a terminal shows them. */
  readonly tail: string;
  readonly elapsedMs: number;
  /** processes of the command left running after the harness killed it (should be none). */
  readonly leaked: readonly string[];
}

/** Runs the command once in a fresh sandbox under an interval monitor, like the first `run` of an attempt. */
export async function watchForHang(options: WatchOptions): Promise<WatchResult> {
  const sandbox = await createSandbox({
    attemptId: `capture-${process.pid}-${Date.now().toString(36)}`,
    workspaceSource: options.workspace,
    timeScale: 1,
    capabilities: options.capabilities,
  });
  const started = performance.now();
  try {
    const proc = sandbox.spawn(options.command, { commandId: 1, terminal: options.terminal });
    proc.stdin.on('error', () => undefined);
    const monitor = createMonitor({
      process: proc,
      mode: { mode: 'interval', everyMs: options.intervalMs },
      logFile: path.join(options.logDir, 'capture.log'),
    });
    const ticks: Tick[] = [];
    // A timer we hold, not AbortSignal.timeout: with that inside AbortSignal.any, a capture on Node 20.20 ran 10 minutes
    // past a 2-minute --max (the timeout signal is held only weakly by the combined one).
    const giveUp = new AbortController();
    const maxTimer = setTimeout(() => giveUp.abort(), options.maxMs);
    const deadline = AbortSignal.any([giveUp.signal, options.stop]);
    let end: WatchEnd | null = null;
    let exit: WatchResult['exit'] = null;
    let hungInARow = 0;
    while (end === null) {
      const event = await monitor.nextTickOrExit(deadline).catch(() => null);
      if (event === null) end = options.stop.aborted ? 'stopped' : 'max';
      else if (event.type === 'exit') {
        end = 'exited';
        exit = { exitCode: event.exit.exitCode, signal: event.exit.signal };
      } else {
        ticks.push(event.tick);
        options.onTick?.(event.tick);
        hungInARow = looksHung(event.tick.classification) ? hungInARow + 1 : 0;
        if (hungInARow >= options.hungTicks) end = 'hung';
      }
    }
    clearTimeout(maxTimer);
    const tail = monitor.tail(8192);
    if (!proc.done) await proc.kill('harness', 'capture: watched long enough');
    await proc.exited;
    monitor.stop();
    const leaks = await sandbox.leakScan();
    return {
      end,
      ticks,
      exit,
      tail,
      elapsedMs: performance.now() - started,
      leaked: leaks.leaked.map((leak) => leak.command),
    };
  } finally {
    await sandbox.dispose();
  }
}
