import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SandboxProcess } from '../../src/sandbox/types.js';
import type { ExitInfo, KillRecord } from '../../src/types/process.js';

/**
 * A stand-in for the sandbox, kept for one test only (monitor.test.ts): it reports `startedAt` on the performance.now()
 * clock, as the SandboxProcess contract allows and the real sandbox never does. `bash -c` detached in its own process
 * group and session, stdin an open pipe, the tree found by a /proc scan. Every other monitor test runs in the real
 * sandbox (watch.ts). Tests must call `killAllTrees()` in afterEach.
 */

export const FIXTURES = fileURLToPath(new URL('../fixtures/monitor/', import.meta.url));

const live = new Set<SandboxProcess>();
let nextCommandId = 1;

export function spawnTree(command: string): SandboxProcess {
  // performance.now() at spawn, the clock the monitor's ticks and elapsed times use.
  const startedAt = performance.now();
  const child = spawn('bash', ['-c', command], { cwd: FIXTURES, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  const rootPid = child.pid;
  if (rootPid === undefined) throw new Error(`could not spawn bash -c ${command}`);
  const known = new Set<number>([rootPid]);
  let done = false;
  // 'close' fires once the root exited and both pipes reached EOF: what a terminal calls "over".
  const exited = new Promise<ExitInfo>((resolve) => {
    child.on('close', (exitCode, signal) => {
      done = true;
      resolve({ exitCode, signal, durationMs: performance.now() - startedAt });
    });
  });
  const pids = (): number[] => treePids(rootPid, known);
  const tree: SandboxProcess = {
    commandId: nextCommandId++,
    command,
    pid: rootPid,
    startedAt,
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    get done() {
      return done;
    },
    pids,
    async kill(by, reason): Promise<KillRecord> {
      const decidedAt = performance.now();
      const victims = pids();
      signalAll(rootPid, victims);
      if (!done) await exited;
      return {
        by,
        reason,
        mechanism: 'process-group+scan',
        treeSize: victims.length,
        steps: [{ signal: 'SIGKILL', atMs: 0, alive: victims.length }],
        escalatedToKill: true,
        goneMs: performance.now() - decidedAt,
        survivors: [],
      };
    },
  };
  live.add(tree);
  void exited.then(() => live.delete(tree));
  return tree;
}

export async function killAllTrees(): Promise<void> {
  await Promise.all([...live].map((tree) => tree.kill('harness', 'test cleanup')));
}

function signalAll(rootPid: number, pids: readonly number[]): void {
  const attempt = (target: number): void => {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  attempt(-rootPid);
  for (const pid of pids) attempt(pid);
}

interface Stat {
  readonly state: string;
  readonly ppid: number;
  readonly pgid: number;
  readonly sid: number;
}

function readStat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '?', ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]) };
  } catch {
    return null;
  }
}

/** Live, non-zombie processes in the root's session or group, their descendants, and any seen before (orphans). */
function treePids(rootPid: number, known: Set<number>): number[] {
  const stats = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (stat && stat.state !== 'Z' && stat.state !== 'X') stats.set(pid, stat);
  }
  for (const [pid, stat] of stats) if (stat.sid === rootPid || stat.pgid === rootPid) known.add(pid);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, stat] of stats) {
      if (!known.has(pid) && known.has(stat.ppid)) {
        known.add(pid);
        grew = true;
      }
    }
  }
  for (const pid of known) if (!stats.has(pid)) known.delete(pid);
  return [...known];
}
