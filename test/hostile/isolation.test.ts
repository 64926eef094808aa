import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeHost, type Sandbox } from '../../src/sandbox/index.js';
import { makeSandbox, run } from '../sandbox/helpers.js';
import { onlyOnHostShape, requireCapability } from '../support/capability.js';

const PROJECT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const caps = await probeHost();
const jailed = caps.isolation === 'bubblewrap';
/** Planted in the harness's own environment: nothing in a sandbox may read it, by any route. */
const PLANTED = 'hb-planted-7f3e91';
process.env.HANGBENCH_TEST_PLANTED_KEY = PLANTED;

// A fresh sandbox per test: what one test leaves running (a background sleep) is never another test's to see.
let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await makeSandbox('isolation');
});
afterEach(async () => {
  await sandbox.leakScan();
  await sandbox.dispose();
});

async function sh(command: string, commandId = 1): Promise<{ text: string; code: number | null }> {
  const { proc, out } = run(sandbox, command, commandId);
  const exit = await proc.exited;
  return { text: out.text, code: exit.exitCode };
}

describe('from inside a bubblewrap sandbox a command', () => {
  beforeEach((ctx) => requireCapability(ctx, 'bubblewrap', jailed));
  it('is not root and holds no capability', async () => {
    const { text } = await sh('id -u; id -g; grep -E "^(CapEff|CapPrm|CapBnd|NoNewPrivs)" /proc/self/status');
    const [uid, gid] = text.split('\n');
    expect(uid).not.toBe('0');
    expect(gid).not.toBe('0');
    expect(text).toMatch(/CapEff:\s+0000000000000000/);
    expect(text).toMatch(/CapBnd:\s+0000000000000000/);
    expect(text).toMatch(/NoNewPrivs:\s+1/);
  });

  it('cannot find or read any file of the project, fixtures/, cases/ or results/', async () => {
    const probe = [
      `ls ${PROJECT}/package.json ${PROJECT}/cases ${PROJECT}/fixtures ${PROJECT}/results 2>&1`,
      `cat ${PROJECT}/fixtures/hanging-programs/py-pipe-deadlock/solution.patch 2>&1`,
      'find / \\( -path /proc -o -path /usr \\) -prune -o \\( -name solution.patch -o -name "py-pipe-deadlock*" -o -name "*.yaml" -path "*cases*" -o -type d -name hidden \\) -print 2>/dev/null',
      'echo searched',
    ].join('; ');
    const { text } = await sh(probe, 2);
    expect(text).toContain('searched');
    expect(text).toMatch(/package\.json'?: No such file or directory/);
    expect(text).toMatch(/solution\.patch: No such file or directory/);
    const found = text.split('\n').filter((line) => line.startsWith('/'));
    expect(found).toEqual([]);
  });

  it('cannot see, signal or ptrace the harness, nor read its environment or the planted key', async () => {
    const harness = process.pid;
    const ptrace = `import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); r = libc.ptrace(16, ${harness}, 0, 0); print("ptrace", r, os.strerror(ctypes.get_errno()))`;
    const probe = [
      'ls /proc | grep -E "^[0-9]+$" | wc -l',
      `kill -0 ${harness} 2>&1 || echo kill-failed`,
      `kill -TERM ${harness} 2>&1 || echo term-failed`,
      `cat /proc/${harness}/environ 2>&1 | head -c 200; echo`,
      `python3 -c '${ptrace}'`,
      `cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n" | grep -c ${PLANTED} || true`,
      `grep -rs ${PLANTED} /etc /tmp "$HOME" 2>/dev/null | head -3; echo grep-done`,
      // Refused (a root jail's PID 1 is root) or dropped by the kernel (no init takes SIGKILL from inside its namespace).
      'kill -KILL 1 2>/dev/null; sleep 0.2; [ -d /proc/1 ] && echo init-survived',
    ].join('; ');
    const { text } = await sh(probe, 3);
    const [count] = text.split('\n');
    // bwrap (PID 1), the holder (PID 2), this bash and the pipeline: nothing of the host's.
    expect(Number(count)).toBeLessThan(10);
    expect(text).toContain('kill-failed');
    expect(text).toContain('term-failed');
    expect(text).toMatch(new RegExp(`/proc/${harness}/environ: No such file or directory`));
    expect(text).toMatch(/ptrace -1 No such process/);
    expect(text).not.toContain(`=${PLANTED}`);
    expect(text).toMatch(/^0$/m);
    expect(text).toContain('grep-done');
    expect(text).toContain('init-survived');
    expect(process.env.HANGBENCH_TEST_PLANTED_KEY).toBe(PLANTED);
  });

  it('cannot write outside the workspace, its HOME and /tmp; can write in those', async () => {
    const targets = [
      '/etc/hb-escape',
      '/usr/hb-escape',
      '/root/.pyenv/hb-escape',
      `${PROJECT}/hb-escape`,
      '/hb-escape',
    ];
    const probe = [
      ...targets.map((file) => `(echo x > ${file}) 2>/dev/null && echo "wrote ${file}" || echo "refused ${file}"`),
      'echo ok > inside.txt && echo ok > "$HOME/home.txt" && echo ok > /tmp/tmp.txt && echo ok > "$TMPDIR/tmpdir.txt" && echo private-writes-ok',
    ].join('; ');
    const { text } = await sh(probe, 4);
    for (const file of targets) expect(text).toContain(`refused ${file}`);
    expect(text).toContain('private-writes-ok');
    for (const file of targets) expect(existsSync(file)).toBe(false);
    expect(await sandbox.readFile('inside.txt')).toBe('ok\n');
    await rm(`${sandbox.workspace}/inside.txt`);
  });

  it('reaches only loopback', async () => {
    const script = [
      'import socket',
      'try:',
      '    socket.create_connection(("1.1.1.1", 53), timeout=2); print("out connected")',
      'except OSError as error:',
      '    print("out failed:", error.strerror)',
      'server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen()',
      'socket.create_connection(server.getsockname(), timeout=2).close(); print("loopback ok")',
    ].join('\n');
    const { text } = await sh(`ip -o link show | cut -d: -f2 | tr -d " "; python3 -c '${script}'`, 5);
    expect(text.split('\n')[0]).toBe('lo');
    expect(text).toContain('out failed: Network is unreachable');
    expect(text).toContain('loopback ok');
  });

  it('leaves a background process running for the next command to see, as on a real machine, and the leak scan ends it', async () => {
    await sh('sleep 300 > /dev/null 2>&1 & echo started', 6);
    const { text } = await sh('pgrep -x sleep -u "$(id -u)" | wc -l', 7);
    expect(Number(text.trim())).toBe(1);
    const report = await sandbox.leakScan();
    expect(report.leaked.map((leak) => leak.command)).toEqual(['sleep 300']);
  });
});

describe('--isolation strict', () => {
  it('refuses to run an eval in the host-user fallback, naming the package', async () => {
    const env = { ...process.env, HANGBENCH_ISOLATION: 'host-user' };
    const parent = await mkdtemp(`${tmpdir()}/hangbench-strict-`);
    const never = `${parent}/never`;
    const args = [
      `${PROJECT}/bin/hangbench.js`,
      'eval',
      `${PROJECT}/cases/py-pipe-deadlock.yaml`,
      '--agent',
      'nop',
      '--isolation',
      'strict',
      '--out',
      never,
    ];
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile('node', args, { env }, (error, _stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stderr }),
      );
    });
    expect(result.code).not.toBe(0);
    // Forced onto the fallback, the refusal names the cause and the fix: the variable, not a missing package.
    expect(result.stderr).toMatch(
      /--isolation strict: this host cannot run commands under bubblewrap \(forced by HANGBENCH_ISOLATION=host-user.*Fix: unset HANGBENCH_ISOLATION/,
    );
    expect(existsSync(never)).toBe(false);
    await rm(parent, { recursive: true });
  });
});

describe('without bubblewrap', () => {
  it('says so in the capabilities, with the package to install', (ctx) => {
    onlyOnHostShape(ctx, !jailed, 'bubblewrap cannot run (test/sandbox/host-shapes.test.ts forces that shape)');
    expect(caps.isolation).toBe('host-user');
    expect(caps.notes.join('\n')).toMatch(/isolation host-user/);
  });
});
