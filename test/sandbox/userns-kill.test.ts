import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeHost, type Sandbox } from '../../src/sandbox/index.js';
import type { HostCapabilities } from '../../src/sandbox/index.js';
import { requireCapability } from '../support/capability.js';
import { makeSandbox as makeAnySandbox, procState, run } from './helpers.js';

const caps = await probeHost();
/**
 * The path under test: bubblewrap with no writable cgroup — a non-root harness (a laptop, a GitHub runner) or root in a
 * container whose cgroupfs is read-only (test/hostile-slow/readonly-cgroup.test.ts runs this file so). Where this host
 * has a writable cgroup, the probe's answer is forced to none: the jail then enters the way it does without one.
 */
const withoutCgroup = (host: HostCapabilities): HostCapabilities =>
  host.cgroupRoot === null ? host : { ...host, cgroupRoot: null, mechanism: 'pid-namespace' };
const makeSandbox = (label: string): Promise<Sandbox> => makeAnySandbox(label, { capabilities: withoutCgroup });
const forced = caps.cgroupRoot !== null;

/** Resolves once every pid has been gone (or a zombie) on each look for `ms`; rejects naming the first one seen alive. */
async function noneAliveFor(pids: readonly number[], ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const alive = pids.filter((pid) => !/^(Z|gone)$/.test(procState(pid) ?? 'gone'));
    if (alive.length > 0) throw new Error(`alive after the kill record: ${alive.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.leakScan();
  await sandbox?.dispose();
  sandbox = undefined;
});

/** Every way a process can try to leave its command: each prints "<role> <pid>" once it is in place, then blocks. */
const ESCAPES = [
  `setsid bash -c 'echo setsid $$; exec sleep 1000' &`,
  `bash -c '(bash -c "echo double-fork \\$\\$; exec sleep 1000" &) ; exit 0' &`,
  `perl -MPOSIX -e 'POSIX::setpgid(0, 0); print "own-group $$\\n"; exec "sleep", "1000"' &`,
  `env -i /bin/bash -c 'echo env-i $$; exec sleep 1000' &`,
  `bash -c 'env -i setsid /bin/bash -c "echo all-three \\$\\$; exec sleep 1000" & exit 0' &`,
  `unshare --user bash -c 'echo nested-userns $$; exec sleep 1000' &`,
].join('\n');
const ROLES = ['setsid', 'double-fork', 'own-group', 'env-i', 'all-three', 'nested-userns'];

describe('without a writable cgroup, root or not, a command kill (a user namespace per command in the attempt PID namespace)', () => {
  beforeEach((ctx) => requireCapability(ctx, 'bubblewrap', caps.isolation === 'bubblewrap'));
  it('ends every process that tried to leave the command, and nothing of an earlier command', async () => {
    sandbox = await makeSandbox('userns-kill');
    expect(sandbox.capabilities.mechanism).toBe('pid-namespace');
    const earlier = run(sandbox, `sleep 1001 >/dev/null 2>&1 & echo earlier $!`, 1);
    const earlierPid = await earlier.out.pid('earlier');
    await earlier.proc.exited;

    const { proc, out } = run(sandbox, `${ESCAPES}\necho root $$; wait`, 2);
    const pids = await Promise.all(['root', ...ROLES].map((role) => out.pid(role)));
    for (const pid of pids) expect(proc.pids()).toContain(pid);
    expect(proc.pids()).not.toContain(earlierPid);

    const record = await proc.kill('agent', 'test', 'SIGTERM');
    expect(record).toMatchObject({ mechanism: 'pid-namespace', survivors: [] });
    expect(record.treeSize).toBeGreaterThanOrEqual(pids.length);
    // gone with the kill, and still gone a second later: nothing was left to come back (the read-only-cgroupfs root run)
    await noneAliveFor(pids, 1_000);
    // the earlier command's background process is another command's: untouched, and a later command can signal it
    expect(procState(earlierPid)).toMatch(/^[SR]$/);
    const later = run(sandbox, 'pkill -f "^sleep 1001$"; echo signalled $?', 3);
    await later.proc.exited;
    expect(later.out.text).toContain('signalled 0');
    await expect.poll(() => procState(earlierPid) ?? 'gone').toMatch(/^(Z|gone)$/);
  });

  it("keeps a quick command's background process its own when the harness was too busy to watch it start", async () => {
    sandbox = await makeSandbox('userns-busy');
    const quick = run(sandbox, 'sleep 1002 >/dev/null 2>&1 & echo quick $!', 1);
    // Block the event loop while the command starts, leaves its sleep and ends: its namespace is learnt from the marker.
    const until = performance.now() + 1_500;
    while (performance.now() < until) Math.sqrt(until);
    const sleeper = await quick.out.pid('quick');
    await quick.proc.exited;
    const later = run(sandbox, 'echo later $$; exec sleep 1000', 2);
    await later.out.pid('later');
    expect(later.proc.pids()).not.toContain(sleeper);
    await later.proc.kill('agent', 'test', 'SIGKILL');
    expect(procState(sleeper)).toMatch(/^[SR]$/);
    expect(quick.proc.pids()).toContain(sleeper);
  });

  it('reaches a process the harness never saw start (double fork, new session, cleared environment) at the end of the attempt', async () => {
    sandbox = await makeSandbox('userns-leak');
    const { proc, out } = run(
      sandbox,
      `bash -c 'env -i setsid /bin/bash -c "echo daemon \\$\\$; exec sleep 1000 >/dev/null 2>&1" & exit 0'; exit 0`,
      1,
    );
    const daemon = await out.pid('daemon');
    await proc.exited;
    const report = await sandbox.leakScan();
    expect(report.clean).toBe(false);
    expect(report.leaked.map((leak) => leak.pid)).toContain(daemon);
    expect(procState(daemon) ?? 'gone').toMatch(/^(Z|gone)$/);
  });
});

describe('this host', () => {
  it('says which kill path the tests above take', () => {
    console.info(
      `userns kill path: uid ${process.getuid?.()}, isolation ${caps.isolation}, cgroup ${caps.cgroupRoot ?? 'none'}${forced ? ' (forced to none above)' : ''}, mechanism ${caps.mechanism}`,
    );
    expect(caps.mechanism).toBe(
      caps.cgroupRoot !== null ? 'cgroup-v2' : caps.isolation === 'bubblewrap' ? 'pid-namespace' : 'process-group+scan',
    );
  });
});
