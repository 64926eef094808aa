import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CAN_UNSHARE_MOUNT, requireCapability } from '../support/capability.js';
import { PROJECT_ROOT } from './run-hostile.js';

/** The tests whose expectations depend on the host's cgroups: run here as a container sees them, read-only. */
const HOST_TESTS = [
  'test/sandbox/host.test.ts',
  'test/sandbox/kill.test.ts',
  'test/sandbox/limits.test.ts',
  'test/sandbox/pty.test.ts',
  'test/sandbox/userns-kill.test.ts',
];
const READ_ONLY = `for m in $(awk '$3 == "cgroup" || $3 == "cgroup2" {print $2}' /proc/self/mounts) /sys/fs/cgroup; do mount -o remount,bind,ro "$m"; done`;

interface JsonReport {
  readonly numFailedTests: number;
  readonly numPassedTests: number;
  readonly numPendingTests: number;
  readonly testResults: ReadonlyArray<{
    readonly assertionResults: ReadonlyArray<{ readonly fullName: string; readonly status: string }>;
  }>;
}

const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe('the host tests with the cgroup filesystem read-only (a private mount namespace)', () => {
  it('take the no-cgroup branch: all pass but the one that needs a writable cgroup, which says so', async (ctx) => {
    requireCapability(ctx, 'root with mount namespaces', CAN_UNSHARE_MOUNT);
    const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-ro-cgroup-'));
    scratch.push(dir);
    const report = path.join(dir, 'report.json');
    const vitest = path.join(PROJECT_ROOT, 'node_modules/.bin/vitest');
    const script = `set -e; ${READ_ONLY}; exec "$@"`;
    const args = ['run', ...HOST_TESTS, '--reporter=json', `--outputFile=${report}`, '--reporter=verbose'];
    // CI is unset inside: there the missing writable cgroup is this test's doing, not a missing install step.
    const env = { ...process.env, CI: '', HANGBENCH_SKIP_LOG: '' };
    const stdout = await new Promise<string>((resolve) => {
      execFile(
        'unshare',
        ['-m', '--propagation', 'private', 'bash', '-c', script, 'ro', vitest, ...args],
        { cwd: PROJECT_ROOT, env, maxBuffer: 64 * 1024 ** 2 },
        (_error, out) => resolve(out),
      );
    });
    const result = JSON.parse(await readFile(report, 'utf8')) as JsonReport;
    const tests = result.testResults.flatMap((file) => file.assertionResults);
    const failed = tests.filter((test) => test.status === 'failed').map((test) => test.fullName);
    expect(failed).toEqual([]);
    expect(tests.filter((test) => test.status !== 'passed').map((test) => test.fullName)).toEqual([
      'probeHost finds a writable cgroup where the harness is meant to (root on the CI machine)',
    ]);
    expect(result.numPassedTests).toBeGreaterThan(20);
    // The other branch, seen from inside: the probe found no cgroup and root's jail kills by per-command namespace
    // (userns-kill.test.ts above: setsid, env -i, a double fork and setpgid die with the kill, none alive 1 s later).
    expect(stdout).toMatch(
      /host capabilities: \{[^\n]*"mechanism":"pid-namespace"[^\n]*"cgroupLimits":\{"pids":null,"memory":null,"cpu":null\}/,
    );
    expect(stdout).toMatch(/userns kill path: uid 0, isolation bubblewrap, cgroup none, mechanism pid-namespace/);
    expect(stdout).toMatch(/tree kill: goneMs=[\d.]+ steps=\[[^\n]*"signal":"SIGKILL"/);
  }, 300_000);
});
