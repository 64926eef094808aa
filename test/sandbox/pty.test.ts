import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox, SandboxProcess } from '../../src/sandbox/index.js';
import { keyBytes } from '../../src/types/actions.js';
import { HangbenchError } from '../../src/types/errors.js';
import { requireCapability } from '../support/capability.js';
import { attemptMarkerProcesses } from '../support/proc-scan.js';
import { makeSandbox, Output, procState } from './helpers.js';

const PTY_FIXTURES = fileURLToPath(new URL('../fixtures/pty', import.meta.url));
const EDITOR = ['/usr/bin/vim', '/usr/bin/vi'].find((path) => existsSync(path));

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.dispose();
  sandbox = undefined;
});

async function ptySandbox(label: string): Promise<Sandbox> {
  sandbox = await makeSandbox(label, { workspaceSource: PTY_FIXTURES });
  return sandbox;
}

function runPty(
  box: Sandbox,
  command: string,
  commandId = 1,
  env?: Record<string, string>,
): { proc: SandboxProcess; out: Output } {
  const proc = box.spawn(command, { commandId, terminal: 'pty', env });
  return { proc, out: Output.of(box, proc) };
}

/** Presses keys as the session's `input {keys}` does on a pty. */
function press(proc: SandboxProcess, ...keys: string[]): void {
  proc.stdin.write(keys.map((key) => keyBytes(key, { terminal: 'pty' })).join(''));
}

/** A process on the terminal sleeps in a read or poll: the program is waiting for us, not still starting up. */
async function waitsForKeys(proc: SandboxProcess): Promise<void> {
  const waiting = (pid: number): boolean => {
    try {
      return (
        pid !== proc.pid &&
        procState(pid) === 'S' &&
        readdirSync(`/proc/${pid}/fd`).some((fd) =>
          /^\/dev\/(pts\/\d+|tty)$/.test(readlinkSync(`/proc/${pid}/fd/${fd}`)),
        ) &&
        /wait_woken|n_tty_read|poll|select/.test(readFileSync(`/proc/${pid}/wchan`, 'utf8'))
      );
    } catch {
      return false;
    }
  };
  await vi.waitFor(() => expect(proc.pids().some(waiting)).toBe(true), { timeout: 10_000 });
}

describe('terminal: pty', () => {
  it('is a real 80x24 xterm with stdin, stdout and stderr on the slave, and keeps the exit code', async () => {
    const box = await ptySandbox('pty-basic');
    expect(box.capabilities.pty).toBe(true);
    const { proc, out } = runPty(
      box,
      'tty; stty size; echo "TERM=$TERM"; readlink /proc/$$/fd/0 /proc/$$/fd/2; echo oops >&2; exit 3',
    );
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 3, signal: null });
    expect(proc.terminal).toBe('pty');
    const lines = out.text.split('\r\n');
    expect(lines[0]).toMatch(/^\/dev\/pts\/\d+$/);
    expect(lines.slice(1)).toEqual(['24 80', 'TERM=xterm-256color', lines[0], lines[0], 'oops', '']);
  });

  it('types what is written to stdin, echoes it like a terminal, and turns a closed stdin into ^D', async () => {
    const box = await ptySandbox('pty-stdin');
    const { proc, out } = runPty(box, 'read -r line; echo "got <$line>"; cat; echo "cat saw EOF"');
    proc.stdin.write('hello\r');
    await out.line(/got <hello>/);
    proc.stdin.end();
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(out.text).toBe('hello\r\ngot <hello>\r\ncat saw EOF\r\n');
  });

  it('less on a long file waits for a key, and q ends it', async () => {
    const box = await ptySandbox('pty-less');
    const { proc, out } = runPty(box, 'seq 1 500 > long.txt && less long.txt');
    await out.line(/long\.txt/);
    await waitsForKeys(proc);
    const settled = await Promise.race([
      proc.exited.then(() => 'exited'),
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
    ]);
    expect(settled).toBe('waiting');
    expect(out.text).toContain('23\r\n');
    expect(out.text).not.toContain('500');
    press(proc, 'q');
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
  });

  it('a python getpass prompt reads /dev/tty, after input() read the terminal as stdin', async () => {
    const box = await ptySandbox('pty-getpass');
    const { proc, out } = runPty(box, 'python3 ask-password.py');
    await out.line(/Username: $/);
    proc.stdin.write('ada');
    press(proc, 'enter');
    await out.line(/Password: $/);
    proc.stdin.write('hunter2');
    press(proc, 'enter');
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(out.text).toContain('logged in as ada with a 7-character password');
    // getpass turns echo off: the password never reaches the screen.
    expect(out.text).not.toContain('hunter2');
  });

  it('an arrow-key menu in raw mode is answered with down + enter', async () => {
    const box = await ptySandbox('pty-menu');
    const { proc, out } = runPty(box, 'node menu.mjs');
    await out.line(/blue/);
    await waitsForKeys(proc);
    press(proc, 'down', 'enter');
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(out.text).toContain('picked green');
  });

  it('ctrl-c reaches the whole foreground process group through the line discipline', async () => {
    const box = await ptySandbox('pty-ctrl-c');
    const { proc, out } = runPty(box, 'bash ctrl-c-tree.sh');
    const grandchild = await out.pid('grandchild');
    await vi.waitFor(() => expect(proc.pids()).toContain(grandchild));
    press(proc, 'ctrl-c');
    const exit = await proc.exited;
    expect(out.text).toContain('^C');
    expect(out.text).toContain('grandchild got SIGINT');
    expect(out.text).toContain('python got SIGINT, grandchild exited 7');
    // bash got it too, and did what bash does when the child it waits for handled SIGINT itself: carry on.
    expect(out.text).toContain('bash carried on after python exited 3');
    expect(exit.exitCode).toBe(0);
  });

  it('git commit without -m opens an editor (vim) that waits for keys', async (ctx) => {
    requireCapability(ctx, 'vim', EDITOR !== undefined);
    const box = await ptySandbox('pty-git');
    const editor = `${EDITOR} -u NONE -N`;
    const setup = 'git init -q repo && cd repo && echo one > a.txt && git add a.txt';
    const identity = {
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.com',
    };
    const { proc, out } = runPty(
      box,
      `${setup} && GIT_EDITOR="${editor}" git commit && git --no-pager log --format=%s`,
      1,
      identity,
    );
    await vi.waitFor(() => expect(out.text).toMatch(/COMMIT_EDITMSG/));
    await waitsForKeys(proc);
    const settled = await Promise.race([
      proc.exited.then(() => 'exited'),
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
    ]);
    expect(settled).toBe('waiting');
    proc.stdin.write('ifixed by vim');
    press(proc, 'escape', ':', 'w', 'q', 'enter');
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(out.text).toMatch(/fixed by vim\r\n$/);
  });

  it('a kill leaves nothing of a pty tree: Ctrl-C to the foreground group, then TERM, then cgroup.kill (or SIGKILL to each)', async () => {
    const box = await ptySandbox('pty-kill');
    const { proc, out } = runPty(
      box,
      'setsid bash -c \'trap "" INT TERM HUP; echo "escaped $$"; exec sleep 1000\' & trap "" INT; echo "root $$"; less /etc/passwd',
    );
    // less may draw its screen before the escaped process prints, so its line need not start a line.
    const [root, escaped] = await Promise.all([
      out.pid('root'),
      out.line(/escaped (\d+)/).then((match) => box.hostPid(Number(match[1])) ?? -1),
    ]);
    await waitsForKeys(proc);
    expect(proc.pids()).toEqual(expect.arrayContaining([proc.pid, root, escaped]));

    const record = await proc.kill('agent', 'pty tree');

    expect(record.steps.map((step) => step.signal)).toEqual([
      'SIGINT',
      'SIGTERM',
      'SIGCONT',
      box.capabilities.mechanism === 'cgroup-v2' ? 'cgroup.kill' : 'SIGKILL',
    ]);
    expect(record).toMatchObject({ escalatedToKill: true, survivors: [] });
    expect(attemptMarkerProcesses(box.attemptId)).toEqual([]);
    expect(proc.pids()).toEqual([]);
    await proc.exited;
  });

  it('a kill of a pager that leaves on SIGTERM needs no SIGKILL, and script(1) reports how the command ended', async () => {
    const box = await ptySandbox('pty-kill-less');
    const { proc, out } = runPty(box, 'seq 1 500 | less');
    await out.line(/\(END\)|:/);
    await waitsForKeys(proc);
    const record = await proc.kill('agent', 'pager');
    expect(record).toMatchObject({ escalatedToKill: false, survivors: [] });
    expect(record.steps.map((step) => step.signal)).toEqual(['SIGINT', 'SIGTERM', 'SIGCONT']);
    // script is spared the SIGTERM: it exits by itself with 128 + SIGTERM, not with its own "Session terminated" 0.
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 143, signal: null });
    expect(attemptMarkerProcesses(box.attemptId)).toEqual([]);
  });

  it('without cgroups, the per-command namespace (a jail) or the process group + marker scan (host-user) kills a pty tree too', async () => {
    sandbox = await makeSandbox('pty-fallback', {
      workspaceSource: PTY_FIXTURES,
      capabilities: (caps) => ({ ...caps, mechanism: 'process-group+scan', cgroupRoot: null }),
    });
    const { proc, out } = runPty(
      sandbox,
      'setsid bash -c \'trap "" INT TERM HUP; echo "escaped $$"; exec sleep 1000\' & echo "root $$"; exec less /etc/passwd',
    );
    const escaped = sandbox.hostPid(Number((await out.line(/escaped (\d+)/))[1])) ?? -1;
    await waitsForKeys(proc);
    const record = await proc.kill('agent', 'fallback');
    expect(record).toMatchObject({
      mechanism: sandbox.capabilities.isolation === 'bubblewrap' ? 'pid-namespace' : 'process-group+scan',
      escalatedToKill: true,
      survivors: [],
    });
    expect(procState(escaped) ?? 'Z').toBe('Z');
    expect(attemptMarkerProcesses(sandbox.attemptId)).toEqual([]);
    await proc.exited;
  });

  it('is over when the terminal session ends, as a prompt would return; what it left running is a leak', async () => {
    const box = await ptySandbox('pty-leftover');
    // The leftover ignores SIGHUP (the hangup of a closing terminal) before the shell exits, as nohup would.
    const leftover = `bash -c 'trap "" HUP; echo $$ > pid; exec sleep 1000' >/dev/null 2>&1 & until [ -s pid ]; do :; done; echo "left $(cat pid)"`;
    const { proc, out } = runPty(box, leftover);
    const left = await out.pid('left');
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(proc.pids()).toEqual([left]);
    const leaks = await box.leakScan();
    expect(leaks).toMatchObject({ clean: false, leaked: [{ pid: left, command: 'sleep 1000' }] });
    expect(attemptMarkerProcesses(box.attemptId)).toEqual([]);
  });

  it('refuses a pty where the host has no script(1)', async () => {
    const box = await makeSandbox('pty-none', { capabilities: (caps) => ({ ...caps, pty: false }) });
    sandbox = box;
    expect(() => box.spawn('true', { commandId: 1, terminal: 'pty' })).toThrow(HangbenchError);
    expect(() => box.spawn('true', { commandId: 1, terminal: 'pty' })).toThrow(/terminal: pty needs script\(1\)/);
  });
});
