import { watch, type FSWatcher } from 'node:fs';
import { closeSync, constants, existsSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isLive, ObservedProcess, type ObservedExit } from '../../sandbox/index.js';

const SWEEP_MS = 50;
/** After the shim's pid went, how long a late `.done` may still arrive before the exit is taken as a SIGKILL. */
const REPORT_GRACE_MS = 300;

export interface ShimCommand {
  readonly process: ObservedProcess;
  /** the pid inside the sandbox, as the command sees `$$`. */
  readonly innerPid: number;
}

/**
 * Watches the shim folder of one attempt: each `<pid>.start` becomes an ObservedProcess handed to `onStart` (which sets
 * up its monitor) before the shim is let go through `<pid>.ack`; each `<pid>.done` ends it. A shim that dies without a
 * report (SIGKILL to its process group) is ended when its pid goes.
 */
export class ShimWatcher {
  readonly #dir: string;
  readonly #hostPid: (inner: number) => number | null;
  readonly #onStart: (command: ShimCommand) => void;
  readonly #live = new Map<number, { process: ObservedProcess; ack: number | null; goneAt: number | null }>();
  readonly #seen = new Set<number>();
  readonly #watcher: FSWatcher;
  readonly #sweep: NodeJS.Timeout;
  #nextId: () => number;
  #stopped = false;

  readonly #insideDir: string;

  /** `dir` on the host; `insideDir` the same folder as the sandbox sees it. */
  constructor(options: {
    dir: string;
    insideDir: string;
    hostPid: (inner: number) => number | null;
    nextId: () => number;
    onStart: (command: ShimCommand) => void;
  }) {
    this.#dir = options.dir;
    this.#insideDir = options.insideDir;
    this.#hostPid = options.hostPid;
    this.#onStart = options.onStart;
    this.#nextId = options.nextId;
    this.#watcher = watch(this.#dir, () => this.#scan());
    this.#watcher.on('error', () => undefined);
    this.#sweep = setInterval(() => this.#scan(), SWEEP_MS);
  }

  /** No more commands are taken; the shims waiting for an answer go on after their 5 s without a monitor. */
  stop(): void {
    this.#stopped = true;
    this.#watcher.close();
    clearInterval(this.#sweep);
    for (const entry of this.#live.values()) if (entry.ack !== null) closeSync(entry.ack);
  }

  /**
   * Takes every report and every gone shim now, with no grace for a late report (a shim writes `.done` before it exits,
   * so a gone pid without one was killed): called before the harness ends what is left, so a command the agent's tool
   * already ended is not recorded as the harness's kill.
   */
  settle(): void {
    this.#scan(0);
  }

  #scan(graceMs = REPORT_GRACE_MS): void {
    if (this.#stopped) return;
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return;
    }
    for (const name of names) {
      const match = /^(\d+)\.(start|done)$/.exec(name);
      if (!match) continue;
      const inner = Number(match[1]);
      if (match[2] === 'start' && !this.#seen.has(inner)) this.#start(inner);
      if (match[2] === 'done') this.#finish(inner, this.#reported(inner));
    }
    const now = performance.now();
    for (const [inner, entry] of this.#live) {
      if (isLive(entry.process.shimPid)) continue;
      entry.goneAt ??= now;
      if (now - entry.goneAt >= graceMs && !existsSync(path.join(this.#dir, `${inner}.done`))) {
        this.#finish(inner, { exitCode: null, signal: 'SIGKILL', toGroup: true, inferred: true });
      }
    }
  }

  #start(inner: number): void {
    this.#seen.add(inner);
    const hostPid = this.#hostPid(inner);
    let command = '';
    try {
      command = readFileSync(path.join(this.#dir, `${inner}.cmd`), 'utf8');
    } catch {
      // announced without its command: still a command
    }
    const process = new ObservedProcess({
      commandId: this.#nextId(),
      command,
      hostPid: hostPid ?? inner,
      outputFile: path.join(this.#dir, `${inner}.out`),
      insideOutputFile: path.join(this.#insideDir, `${inner}.out`),
    });
    this.#onStart({ process, innerPid: inner });
    // The answer stays in the FIFO while the harness holds it open, whenever the shim gets to read it.
    let ack: number | null = null;
    try {
      ack = openSync(path.join(this.#dir, `${inner}.ack`), constants.O_RDWR | constants.O_NONBLOCK);
      writeSync(ack, 'go\n');
    } catch {
      // no FIFO (mkfifo failed): the shim goes on after its timeout
    }
    this.#live.set(inner, { process, ack, goneAt: null });
    if (hostPid === null) this.#finish(inner, this.#reported(inner));
  }

  #reported(inner: number): ObservedExit {
    const text = (() => {
      try {
        return readFileSync(path.join(this.#dir, `${inner}.exit`), 'utf8');
      } catch {
        return '';
      }
    })();
    const [statusText, got] = text.trim().split(' ');
    const status = Number(statusText);
    if (!Number.isInteger(status)) return { exitCode: null, signal: 'SIGKILL', toGroup: true, inferred: true };
    const signal = status > 128 && status < 193 ? signalName(status - 128) : null;
    return { exitCode: signal ? null : status, signal, toGroup: got !== undefined && got !== '', inferred: false };
  }

  #finish(inner: number, exit: ObservedExit): void {
    const entry = this.#live.get(inner);
    if (!entry) return;
    this.#live.delete(inner);
    if (entry.ack !== null) closeSync(entry.ack);
    entry.process.finish(exit);
  }
}

const SIGNALS: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  6: 'SIGABRT',
  9: 'SIGKILL',
  10: 'SIGUSR1',
  12: 'SIGUSR2',
  13: 'SIGPIPE',
  14: 'SIGALRM',
  15: 'SIGTERM',
};

function signalName(number: number): string {
  return SIGNALS[number] ?? `SIG${number}`;
}
