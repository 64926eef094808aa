import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  hasEnded,
  isLive,
  mayRunAgain,
  parseStat,
  readProcFile,
  readStat,
  sigkillPending,
} from '../../src/proc/index.js';
import { makeSandbox, markedProcesses, procState, run } from './helpers.js';

describe('leak scan', () => {
  it('finds a daemon left behind by a finished command, kills it, and says the attempt was not clean', async () => {
    const sandbox = await makeSandbox('leak');
    const { proc, out } = run(sandbox, 'bash daemon.sh');
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    const daemon = await out.pid('daemon');
    expect(procState(daemon)).toBe('S');

    const report = await sandbox.leakScan();
    expect(report.clean).toBe(false);
    expect(report.leaked).toEqual([{ pid: daemon, command: 'sleep 1000' }]);
    expect(procState(daemon) ?? 'Z').toBe('Z');
    expect(markedProcesses(sandbox.attemptId)).toEqual([]);
    expect(await sandbox.leakScan()).toEqual({ clean: true, leaked: [] });

    await sandbox.dispose();
    expect(existsSync(sandbox.root)).toBe(false);
    expect(() => sandbox.spawn('true', { commandId: 2 })).toThrow(/disposed/);
    const cgroupRoot = sandbox.capabilities.cgroupRoot;
    if (cgroupRoot !== null)
      expect(readdirSync(cgroupRoot).filter((name) => name.startsWith(sandbox.attemptId))).toEqual([]);
  });

  it('finds a daemon whose first thread has ended while another runs on (a zombie leader in /proc), and kills it', async () => {
    const sandbox = await makeSandbox('leader-exited');
    const { proc, out } = run(sandbox, 'bash thread-daemon.sh');
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    const daemon = await out.pid('daemon');
    while (procState(daemon) !== 'Z') await new Promise((resolve) => setTimeout(resolve, 10));
    // what made it invisible: the leader's own stat says zombie and its environ (the marker) cannot be read
    expect(readProcFile(`/proc/${daemon}/environ`, 'utf8') ?? '').toBe('');
    expect(isLive(daemon)).toBe(true);

    const report = await sandbox.leakScan();
    expect(report.clean).toBe(false);
    expect(report.leaked.map((found) => found.pid)).toEqual([daemon]);
    expect(procState(daemon)).toBeNull();
    await sandbox.dispose();
  });

  it('reports clean when everything ended', async () => {
    const sandbox = await makeSandbox('clean');
    const { proc } = run(sandbox, 'true');
    await proc.exited;
    expect(await sandbox.leakScan()).toEqual({ clean: true, leaked: [] });
    await sandbox.dispose();
  });
});

describe('what counts as still running', () => {
  it('a zombie is gone; a zombie leader whose other thread runs is not; both read from the real /proc', async () => {
    const script = [
      'import ctypes, os, sys, threading, time',
      'child = os.fork()',
      'if child == 0: os._exit(0)',
      'threading.Thread(target=lambda: time.sleep(30)).start()',
      'print(child, flush=True)',
      'ctypes.CDLL(None).pthread_exit(None)',
    ].join('\n');
    const parent = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const zombie = Number(
        await new Promise<string>((resolve) => parent.stdout.once('data', (chunk) => resolve(String(chunk)))),
      );
      const leader = parent.pid ?? 0;
      // the forked child is never waited for: a zombie until its parent goes; the parent's first thread has ended
      while (procState(zombie) !== 'Z' || procState(leader) !== 'Z')
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(readStat(zombie)?.threads).toBe(1);
      expect(isLive(zombie)).toBe(false);
      expect(mayRunAgain(zombie)).toBe(false);
      expect(readStat(leader)?.threads).toBe(2);
      expect(isLive(leader)).toBe(true);
      expect(mayRunAgain(leader)).toBe(true);
      expect(isLive(process.pid)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('a task inside its exit (PF_EXITING) has ended, whatever its state letter; SIGKILL pending means it will not run again', () => {
    const own = readFileSync('/proc/self/stat', 'latin1');
    const stat = parseStat(own);
    expect(stat).not.toBeNull();
    expect(hasEnded({ state: 'R', flags: stat?.flags ?? 0 })).toBe(false);
    expect(hasEnded({ state: 'R', flags: 0x4 })).toBe(true);
    expect(hasEnded({ state: 'D', flags: 0x40810c })).toBe(true);
    expect(hasEnded({ state: 'Z', flags: 0 })).toBe(true);
    const status = readFileSync('/proc/self/status', 'latin1');
    expect(sigkillPending(status)).toBe(false);
    expect(sigkillPending(status.replace(/^SigPnd:.*$/m, 'SigPnd:\t0000000000000100'))).toBe(true);
    expect(sigkillPending(status.replace(/^ShdPnd:.*$/m, 'ShdPnd:\t0000000000004100'))).toBe(true);
    // SIGTERM (bit 15) pending is not SIGKILL
    expect(sigkillPending(status.replace(/^SigPnd:.*$/m, 'SigPnd:\t0000000000004000'))).toBe(false);
  });
});
