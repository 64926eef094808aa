import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { ProcHandles } from '../../src/monitor/sample/proc-handles.js';
import { parseStat } from '../../src/proc/index.js';
import { releaseSample, sampleTree } from '../../src/monitor/sample/sample-tree.js';
import { describeOnLinux } from '../support/capability.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function sleeper(): { child: ChildProcess; pid: number; gone: Promise<void> } {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  children.push(child);
  if (child.pid === undefined) throw new Error('could not spawn sleep');
  return { child, pid: child.pid, gone: new Promise((resolve) => child.on('exit', () => resolve())) };
}

/** Our own descriptors that point into /proc/<pid>/. */
function openInto(pid: number): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(`/proc/${pid}/`);
    } catch {
      return false;
    }
  }).length;
}

describeOnLinux('ProcHandles', () => {
  it('keeps a descriptor per file open and re-reads fresh content through it', async () => {
    const { pid } = sleeper();
    const handles = new ProcHandles();
    const first = parseStat(handles.read(pid, 'stat') ?? '');
    expect(first?.command).toBe('sleep');
    handles.read(pid, 'io');
    expect(openInto(pid)).toBe(2);
    const again = parseStat(handles.read(pid, 'stat') ?? '');
    expect(again?.startTicks).toBe(first?.startTicks);
    expect(openInto(pid)).toBe(2);
    handles.close();
    expect(openInto(pid)).toBe(0);
  });

  it('regenerates the content at each read through the kept descriptor', () => {
    const handles = new ProcHandles();
    const rchar = () => Number(/^rchar:\s+(\d+)/m.exec(handles.read(process.pid, 'io') ?? '')?.[1]);
    const before = rchar();
    readFileSync('/proc/self/status');
    expect(rchar()).toBeGreaterThan(before);
    expect(openInto(process.pid)).toBe(1);
    handles.close();
  });

  it('answers null once the process is gone, drops its descriptors, and never serves the dead one again', async () => {
    const { child, pid, gone } = sleeper();
    const handles = new ProcHandles();
    expect(handles.read(pid, 'stat')).not.toBeNull();
    child.kill('SIGKILL');
    await gone;
    expect(handles.read(pid, 'stat')).toBeNull();
    expect(handles.openDescriptors).toBe(0);
    handles.close();
  });

  it('closes the descriptors of pids a sample no longer names', () => {
    const a = sleeper();
    const b = sleeper();
    const handles = new ProcHandles();
    handles.read(a.pid, 'stat');
    handles.read(b.pid, 'stat');
    handles.retain(new Set([a.pid]));
    expect(openInto(a.pid)).toBe(1);
    expect(openInto(b.pid)).toBe(0);
    handles.close();
  });
});

describeOnLinux('sampleTree with kept descriptors', () => {
  it('passes its descriptors from sample to sample and releases them at the end', () => {
    const { pid } = sleeper();
    const first = sampleTree([pid]);
    const second = sampleTree([pid], first);
    expect(second.handles).toBe(first.handles);
    expect(second.snapshot.processes[0]).toMatchObject({ pid, command: 'sleep', args: 'sleep 600' });
    expect(second.snapshot.processes[0]?.rssKb).toBeGreaterThan(0);
    expect(openInto(pid)).toBeGreaterThan(0);
    releaseSample(second);
    expect(openInto(pid)).toBe(0);
  });

  it('reports the resident set that status reports (stat pages × page size)', () => {
    const sample = sampleTree([process.pid]);
    const status = /^VmRSS:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    const rss = sample.snapshot.processes[0]?.rssKb ?? 0;
    // this process allocates between the two reads; a page-size error would be off by 4x or more
    expect(rss / Number(status)).toBeGreaterThan(0.8);
    expect(rss / Number(status)).toBeLessThan(1.25);
    releaseSample(sample);
  });
});

describeOnLinux('sampleTree reuse of an idle process', () => {
  it('reuses the details of a process that has not run since, and reads afresh one that ran', async () => {
    const child = spawn('bash', ['-c', 'read first; exec 3</dev/null; echo opened; read second'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    children.push(child);
    const pid = child.pid!;
    let first = sampleTree([pid]);
    // bash must be blocked in read(0) before the baseline sample counts: its start-up runs code
    while (first.snapshot.processes[0]?.state !== 'S' || first.snapshot.processes[0]?.syscall === null) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      first = sampleTree([pid], first);
    }
    const idle = sampleTree([pid], first);
    expect(idle.details.get(pid)?.details).toBe(first.details.get(pid)?.details);
    const fdsBefore = idle.snapshot.processes[0]?.fds.total ?? 0;
    const opened = new Promise((resolve) => child.stdout!.once('data', resolve));
    child.stdin!.write('go\n');
    await opened;
    let after = sampleTree([pid], idle);
    while (after.snapshot.processes[0]?.state !== 'S') {
      await new Promise((resolve) => setTimeout(resolve, 10));
      after = sampleTree([pid], after);
    }
    expect(after.snapshot.processes[0]?.fds.total).toBe(fdsBefore + 1);
    releaseSample(after);
  });
});
