import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { processArgs } from '../../src/monitor/sample/process-args.js';
import { parseStat, readProcFile } from '../../src/proc/index.js';

/**
 * processArgs on real processes: how often it reads /proc/<pid>/cmdline (a read that waits for the process's mmap lock,
 * which a forking process holds) in a small tree and in a big one.
 */
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function started(script: string): Promise<number> {
  const child = spawn('python3', ['-c', script, 'marker-arg'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return child.pid!;
}

/** Its stat line once it sleeps (right after its first output it may still be running). */
async function asleep(pid: number) {
  for (let look = 0; look < 100; look += 1) {
    const stat = statOf(pid);
    if (stat.state === 'S') return stat;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${pid} never slept`);
}

function statOf(pid: number) {
  const stat = parseStat(readProcFile(`/proc/${pid}/stat`) ?? '');
  if (stat === null) throw new Error(`no stat for ${pid}`);
  return stat;
}

/** processArgs with a reader that counts the reads it makes of the real file. */
function counted(pid: number): { read: () => string | null; readonly count: () => number } {
  let reads = 0;
  return {
    read: () => {
      reads += 1;
      return readProcFile(`/proc/${pid}/cmdline`, 'utf8');
    },
    count: () => reads,
  };
}

describe('processArgs', () => {
  it('reads a process of a small tree every time, so a retitled process shows its new title', async () => {
    const pid = await started('import time; print("up", flush=True); time.sleep(60)');
    const reader = counted(pid);
    for (let sample = 0; sample < 3; sample += 1)
      expect(processArgs(pid, await asleep(pid), 3, 200, reader.read)).toMatch(/python3 -c .* marker-arg/);
    expect(reader.count()).toBe(3);
  });

  it('reads a sleeping process of a big tree once, and shows what it read from then on', async () => {
    const pid = await started('import time; print("up", flush=True); time.sleep(60)');
    const reader = counted(pid);
    const first = processArgs(pid, await asleep(pid), 512, 200, reader.read);
    expect(first).toMatch(/marker-arg/);
    for (let sample = 0; sample < 5; sample += 1)
      expect(processArgs(pid, await asleep(pid), 512, 200, reader.read)).toBe(first);
    expect(reader.count()).toBe(1);
  });

  it('never reads a running process of a big tree it has not seen asleep: it shows its comm', async () => {
    const pid = await started('print("up", flush=True)\nwhile True: pass');
    let stat = statOf(pid);
    for (let look = 0; look < 50 && stat.state !== 'R'; look += 1) stat = statOf(pid);
    expect(stat.state).toBe('R');
    const reader = counted(pid);
    expect(processArgs(pid, stat, 512, 200, reader.read)).toBe(stat.command);
    expect(reader.count()).toBe(0);
  });
});
