import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { HangbenchError } from '../../types/errors.js';

const STDERR_TAIL = 2048;
const GRACE_MS = 1000;

/** An external agent process: JSON lines to its stdin, lines from its stdout, its stderr kept for error messages. */
export class AgentProcess {
  private readonly child: ChildProcess;
  private readonly command: string;
  private readonly lines: string[] = [];
  private waiter: { resolve: (line: string) => void; reject: (error: Error) => void } | null = null;
  private exitError: HangbenchError | null = null;
  private stderr = '';
  private readonly exited: Promise<unknown>;

  /** `argv` (default `/bin/sh -c command`) is how to start it: a sandbox's entry comes first (src/sandbox/agent-sandbox.ts). */
  constructor(command: string, cwd: string, env: NodeJS.ProcessEnv, argv: readonly string[] = ['/bin/sh', '-c', command]) {
    this.command = command;
    const [file = '/bin/sh', ...args] = argv;
    // Its own process group, so the whole agent (a shell and what it starts) can be stopped.
    this.child = spawn(file, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
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

  /** SIGTERM to the agent's process group, SIGKILL after a grace; resolves once it is gone. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null || this.child.pid === undefined) return;
    this.signalGroup('SIGTERM');
    const timer = setTimeout(() => this.signalGroup('SIGKILL'), GRACE_MS);
    await this.exited;
    clearTimeout(timer);
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
    this.exitError = new HangbenchError('AGENT', `exec agent "${this.command}" ${what}${stderr ? `; its stderr ends: ${stderr.slice(-500)}` : ''}`);
    if (this.waiter) {
      const { reject } = this.waiter;
      this.waiter = null;
      reject(this.exitError);
    }
  }
}
