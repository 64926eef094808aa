import { describe, expect, it } from 'vitest';
import { makeSandbox, markedProcesses, run } from './helpers.js';

describe('resource limits bind', () => {
  it('stops a fork loop at the process limit, or forks on where the probe said there is none', async () => {
    const sandbox = await makeSandbox('pids', { limits: { processes: 16 } });
    const { processLimit, notes } = sandbox.capabilities;
    // forks.py stops by itself at 200 children, so it is safe to run where nothing binds (root, no pids cgroup).
    const { proc, out } = run(sandbox, 'python3 forks.py');
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    if (processLimit === 'none') {
      expect(notes.join('\n')).toMatch(/no process limit/);
      expect(out.text).toMatch(/^forked 200, no failure$/m);
    } else {
      const forked = Number((await out.line(/fork failed after (\d+)/))[1]);
      expect(forked).toBeLessThan(16);
      // pids.max counts the attempt's own processes only; RLIMIT_NPROC counts every process of the user.
      if (processLimit === 'pids-cgroup') expect(forked).toBeGreaterThan(5);
    }
    expect((await sandbox.leakScan()).clean).toBe(true);
    await sandbox.dispose();
  });

  it('stops a write at the file-size limit', async () => {
    const sandbox = await makeSandbox('fsize', { limits: { fileSizeBytes: 1024 * 1024 } });
    const { proc, out } = run(sandbox, 'head -c 3000000 /dev/zero > big; echo "status $?"; stat -c "size %s" big');
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(Number((await out.line(/status (\d+)/))[1])).toBe(128 + 25); // SIGXFSZ
    expect(Number((await out.line(/size (\d+)/))[1])).toBe(1024 * 1024);
    await sandbox.dispose();
    expect(markedProcesses(sandbox.attemptId)).toEqual([]);
  });
});
