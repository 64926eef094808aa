import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { withDeadline } from '../../types/deadline.js';
import { HangbenchError } from '../../types/errors.js';
import { withoutInheritedFds } from '../../sandbox/index.js';

const STDERR_TAIL = 2048;
const GRACE_MS = 1000;
/** After the SIGKILL, how long stop() waits for the agent's pipes to close before it destroys its ends of them. */
const CLOSE_MS = 1000;

/** An external agent process: JSON lines to its stdin, lines from its stdout, its stderr kept for error messages. */
export class AgentProcess {
  private readonly child: ChildProcess;
  private readonly command: string;
  private readonly lines: string[] = [];
  private waiter: { resolve: (line: string) => void; reject: (error: Error) => void } | null = null;
  private exitError: HangbenchError | null = null;
  private stderr = '';
  private readonly exited: Promise<unknown>;

  /** `argv` (default `/bin/sh -c command`) is how to start it: a sandbox's entry comes first (src/sandbox/agent/agent-sandbox.ts). */
  constructor(
    command: string,
    cwd: string,
    env: NodeJS.ProcessEnv,
    argv: readonly string[] = ['/bin/sh', '-c', command],
  ) {
    this.command = command;
    // What the harness inherited is not the agent's (a jailed agent: nor its sandbox's).
    const [file, ...args] = withoutInheritedFds(argv);
    // Its own process group, so the whole agent (a shell and what it starts) can be stopped.
    this.child = spawn(file, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    // a spawn that fails rejects it; the 'error' listener below records that as the agent's failure
    this.exited = once(this.child, 'close').catch(() => undefined);
    this.child.stdin?.on('error', () => undefined);
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.push(line));
    this.child.on('error', (error) => this.fail(`could not start: ${error.message}`));
    this.child.on('close', (code, signal) => this.fail(`exited (${signal ?? `code ${code}`}) before finishing`));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  send(value: unknown): void {
    if (this.child.stdin?.writable) this.child.stdin.write(`${JSON.stringify(value)}\n`);
  }

  nextLine(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.exitError) return Promise.reject(this.exitError);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  /**
   * SIGTERM to the agent's process group, SIGKILL after a grace; resolves once its pipes closed, or — when a process
   * outside the group (a `setsid` child) still holds them — once the deadline passed and the harness let go of its ends.
   * Returns what it gave up waiting for, or null.
   */
  async stop(): Promise<string | null> {
    if (this.child.pid === undefined) return null;
    const running = this.child.exitCode === null && this.child.signalCode === null;
    if (running) this.signalGroup('SIGTERM');
    const timer = running ? setTimeout(() => this.signalGroup('SIGKILL'), GRACE_MS) : undefined;
    const closed = await withDeadline(this.exited, {
      what: `the exec agent's stdout and stderr to close (pid ${this.child.pid}; a process outside its group still holds them)`,
      ms: (running ? GRACE_MS : 0) + CLOSE_MS,
      onExpire: () => {
        this.signalGroup('SIGKILL');
        for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) stream?.destroy();
      },
    });
    clearTimeout(timer);
    return closed.state === 'expired' ? `gave up after ${closed.waitedMs} ms waiting for ${closed.what}` : null;
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-(this.child.pid as number), signal);
    } catch {
      // already gone
    }
  }

  private push(line: string): void {
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve(line);
    } else {
      this.lines.push(line);
    }
  }

  private fail(what: string): void {
    if (this.exitError) return;
    const stderr = this.stderr.trim();
    this.exitError = new HangbenchError(
      'AGENT',
      `exec agent "${this.command}" ${what}${stderr ? `; its stderr ends: ${stderr.slice(-500)}` : ''}`,
    );
    if (this.waiter) {
      const { reject } = this.waiter;
      this.waiter = null;
      reject(this.exitError);
    }
  }
}
