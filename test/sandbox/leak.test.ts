import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
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

  it('reports clean when everything ended', async () => {
    const sandbox = await makeSandbox('clean');
    const { proc } = run(sandbox, 'true');
    await proc.exited;
    expect(await sandbox.leakScan()).toEqual({ clean: true, leaked: [] });
    await sandbox.dispose();
  });
});
