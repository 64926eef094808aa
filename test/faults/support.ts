import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { attemptMarkerProcesses } from '../support/proc-scan.js';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
export const BIN = path.join(PROJECT_ROOT, 'bin/hangbench.js');
export const HOSTILE = path.join(PROJECT_ROOT, 'test/fixtures/hostile');
export const FAULT_CASES = path.join(PROJECT_ROOT, 'test/fixtures/faults/cases');
/** The sandbox user a root harness runs commands as. */
const SANDBOX_UID = 65534;

export interface Cli {
  readonly child: ChildProcess;
  /** exit code, or 128 + n for a signal, and when (performance.now()) it came. */
  readonly exited: Promise<{ readonly code: number; readonly at: number }>;
  readonly output: () => string;
}

/** The built CLI as a child process; `prefix` runs it under another command (nsenter into a private mount). */
export function hangbench(args: readonly string[], prefix: readonly string[] = []): Cli {
  const argv = [...prefix, 'node', BIN, ...args];
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: PROJECT_ROOT,
    env: { ...process.env, CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const signals: Record<string, number> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  const exited = new Promise<{ code: number; at: number }>((resolve) =>
    child.on('exit', (code, signal) =>
      resolve({ code: code ?? 128 + (signals[signal ?? ''] ?? 0), at: performance.now() }),
    ),
  );
  return { child, exited, output: () => text };
}

/** Polls for something another process does (a file written, processes gone); `what` names it when it never comes. */
export async function until<T>(
  probe: () => Promise<T | null> | T | null,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );
export const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;
export const contains = async (file: string, text: string): Promise<boolean> =>
  (await readFile(file, 'utf8').catch(() => '')).includes(text);

let runs = 0;
/** A run id no other test (or engineer) shares: the leak scan looks for it. */
export function runId(what: string): string {
  return `f${what}${process.pid}n${++runs}`;
}

/**
 * Everything still running of a run: processes carrying its attempt marker, and processes of the sandbox user whose
 * command line or working directory names one of its attempts (a jailed process, or a bwrap holder).
 */
export function leftovers(id: string): Array<{ pid: number; command: string }> {
  const found = new Map(attemptMarkerProcesses(`${id}.`).map((process) => [process.pid, process]));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || found.has(Number(entry))) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      const owner = statSync(`/proc/${entry}`).uid;
      const cwd = owner === SANDBOX_UID ? readlinkSync(`/proc/${entry}/cwd`) : '';
      if (cmdline.includes(`hangbench-${id}.`) || cwd.includes(`hangbench-${id}.`))
        found.set(Number(entry), { pid: Number(entry), command: cmdline.split('\0')[0] ?? '' });
    } catch {
      // gone while we looked
    }
  }
  return [...found.values()];
}

/** The processes of the run gone (generous bound: the machine is shared and loaded); returns how long it took. */
export async function allGone(id: string, timeoutMs = 10_000): Promise<number> {
  const start = performance.now();
  await until(
    () => (leftovers(id).length === 0 ? true : null),
    `every process of run ${id} to be gone (left: ${JSON.stringify(leftovers(id))})`,
    timeoutMs,
  );
  return performance.now() - start;
}

/** Every bubblewrap sandbox naming `part` in its arguments: the holder (its parent is the harness) and the sandbox's PID 1 under it. */
export function sandboxesOf(part: string): Array<{ holder: number; init: number }> {
  const bwraps: Array<{ pid: number; ppid: number }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      if (!cmdline.startsWith('bwrap\0') || !cmdline.includes(part)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      bwraps.push({ pid: Number(entry), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) });
    } catch {
      // gone while we looked
    }
  }
  return bwraps
    .filter((one) => !bwraps.some((other) => other.pid === one.ppid))
    .flatMap((holder) =>
      bwraps.filter((one) => one.ppid === holder.pid).map((init) => ({ holder: holder.pid, init: init.pid })),
    );
}

/**
 * A tmpfs in a private mount namespace, held by a `sleep` (root: `unshare -m`): the harness runs inside it through
 * nsenter, the test reads its files through /proc/<pid>/root, and can fill, remount or enlarge it mid-run.
 */
export class PrivateMount {
  readonly dir: string;
  readonly holder: ChildProcess;

  private constructor(dir: string, holder: ChildProcess) {
    this.dir = dir;
    this.holder = holder;
  }

  static async create(size: string): Promise<PrivateMount> {
    const dir = mkdtempSync(path.join(tmpdir(), 'hangbench-faults-mnt-'));
    const holder = spawn(
      'unshare',
      [
        '-m',
        '--propagation',
        'private',
        'sh',
        '-c',
        `mount -t tmpfs -o size=${size} tmpfs ${dir} && echo mounted && exec sleep 3600`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      holder.stdout?.once('data', () => resolve());
      holder.once('exit', (code) => reject(new Error(`unshare/mount failed with ${code}`)));
    });
    return new PrivateMount(dir, holder);
  }

  /** Runs the harness inside the namespace. */
  get prefix(): string[] {
    return ['nsenter', '-t', String(this.holder.pid), '-m', '--'];
  }

  /** A path inside the mount as this (host) process can read it. */
  seen(inside: string): string {
    return path.join(`/proc/${this.holder.pid}/root`, inside);
  }

  /** Runs a command (mount, dd, rm) inside the namespace; throws on failure. */
  exec(command: string): string {
    const result = spawnSync('nsenter', [...this.prefix.slice(1), 'sh', '-c', command], { encoding: 'utf8' });
    if (result.status !== 0 && !command.includes('|| true')) throw new Error(`${command}: ${result.stderr}`);
    return result.stdout;
  }

  close(): void {
    this.holder.kill('SIGKILL');
  }
}

export interface Summary {
  readonly interrupted: boolean;
  readonly attempts: ReadonlyArray<{
    readonly caseId: string;
    readonly repeat: number;
    readonly outcome: string;
    readonly fault?: { where: string; code: string };
  }>;
}

/** An error line has no stack frames in it. */
export const STACK_FRAME = /^\s+at .+[:(]/m;
