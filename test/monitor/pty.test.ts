import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { createMonitor, renderTick } from '../../src/monitor/index.js';
import type { Monitor } from '../../src/monitor/index.js';
import { createSandbox, probeHost } from '../../src/sandbox/index.js';
import type { Sandbox, SandboxProcess } from '../../src/sandbox/index.js';
import type { Classification, Tick } from '../../src/types/process.js';
import { requireCapability, VIM, describeOnLinux } from '../support/capability.js';
import { sequence, ticksUntil } from './watch.js';

const PTY_FIXTURES = fileURLToPath(new URL('../fixtures/pty', import.meta.url));
// Any ESC or C0 control but \t and \n: a tick's text must not carry them.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

let sandbox: Sandbox | undefined;
let counter = 0;
afterEach(async () => {
  await sandbox?.dispose();
  sandbox = undefined;
});

/** A real pty command in a real sandbox under a real monitor. */
async function watchPty(command: string): Promise<{ proc: SandboxProcess; monitor: Monitor }> {
  sandbox = await createSandbox({
    attemptId: `test-monitor-pty-${process.pid}-${++counter}`,
    workspaceSource: PTY_FIXTURES,
    timeScale: 1,
    capabilities: await probeHost(),
  });
  const proc = sandbox.spawn(command, { commandId: 1, terminal: 'pty' });
  return { proc, monitor: createMonitor({ process: proc, mode: { mode: 'interval', everyMs: 200 } }) };
}

async function expectClassified(monitor: Monitor, expected: Classification): Promise<Tick> {
  const { match, seen } = await ticksUntil(monitor, expected);
  if (!match) expect.fail(`never classified ${expected}; saw:\n${sequence(seen)}`);
  return match;
}

/** Ticks for a while (the command must keep running) and returns every classification seen. */
async function classificationsOver(monitor: Monitor, ticks: number): Promise<Classification[]> {
  const seen: Classification[] = [];
  while (seen.length < ticks) {
    const event = await monitor.nextTickOrExit();
    if (event.type === 'exit') expect.fail(`exited after ${seen.join(', ')}`);
    seen.push(event.tick.classification);
  }
  return seen;
}

describeOnLinux('the monitor on a pty', () => {
  it('less waiting for a key → blocked-on-stdin (a read of the terminal), its screen as plain text', async () => {
    const { monitor } = await watchPty('seq 1 500 > long.txt; less long.txt');
    const tick = await expectClassified(monitor, 'blocked-on-stdin');
    expect(tick.reason).toMatch(/^less \(pid \d+, S in \w+\) is reading the terminal/);
    expect(monitor.applicationCursorKeys).toBe(true);
    const shown = `${tick.output.text}${monitor.tail()}`;
    expect(shown).not.toMatch(CONTROL);
    expect(monitor.tail()).toContain('22\n23\nlong.txt');
    expect(renderTick(tick)).not.toMatch(CONTROL);
    const less = tick.snapshot.processes.find((p) => p.command === 'less');
    expect(less?.stdinIsHarnessPipe).toBe(true);
  });

  it('python input() on the terminal → blocked-on-stdin, with the prompt', async () => {
    const { monitor } = await watchPty('python3 ask-password.py');
    const tick = await expectClassified(monitor, 'blocked-on-stdin');
    expect(tick.reason).toContain('"Username: "');
    expect(tick.reason).toContain('is reading the terminal');
  });

  it('a getpass prompt reading /dev/tty → blocked-on-stdin', async () => {
    const { proc, monitor } = await watchPty('python3 ask-password.py');
    await expectClassified(monitor, 'blocked-on-stdin');
    proc.stdin.write('ada\r');
    let tick: Tick;
    do tick = await expectClassified(monitor, 'blocked-on-stdin');
    while (!tick.reason.includes('Password'));
    expect(tick.reason).toMatch(/python3 \(pid \d+, S in \w+\) is reading the terminal at the prompt "Password: "/);
  });

  it('a raw-mode menu in Node idles in epoll watching the terminal → blocked-on-stdin', async () => {
    const { monitor } = await watchPty('node menu.mjs');
    const tick = await expectClassified(monitor, 'blocked-on-stdin');
    expect(tick.reason).toMatch(/^node \(pid \d+, S in \w*epoll\w*\) waits for a key: it polls the terminal/);
    expect(tick.output.text + monitor.tail()).not.toMatch(CONTROL);
  });

  it('an editor opened by git commit → blocked-on-stdin', async (ctx) => {
    requireCapability(ctx, 'vim', VIM !== undefined);
    const identity =
      'GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=T GIT_COMMITTER_EMAIL=t@example.com';
    const { monitor } = await watchPty(
      `git init -q repo && cd repo && echo one > a && git add a && ${identity} GIT_EDITOR="${VIM} -u NONE -N" git commit`,
    );
    const tick = await expectClassified(monitor, 'blocked-on-stdin');
    expect(tick.reason).toMatch(/^vim\S* \(pid \d+, S in [\w.]+\) waits for a key: it polls the terminal/);
    // vim draws its screen by cursor addressing; the tail shows it as lines, not one run of escapes.
    expect(monitor.tail(8192)).toMatch(/# Please enter the commit message/);
  });

  it('a quiet sleep and a Node timer loop on a pty are not taken for a wait on the keyboard', async () => {
    const sleeping = await watchPty('echo working; sleep 100');
    expect(await classificationsOver(sleeping.monitor, 6)).not.toContain('blocked-on-stdin');
    await sandbox?.dispose();
    sandbox = undefined;
    const server = await watchPty('node -e "console.log(\'listening\'); setInterval(() => {}, 1000)"');
    expect(await classificationsOver(server.monitor, 6)).not.toContain('blocked-on-stdin');
  });

  it('progress on a pty is progressing, and the exit tail is plain text', async () => {
    const { proc, monitor } = await watchPty(`python3 -c "import time
for i in range(12):
    print(f'\\x1b[32mstep {i}\\x1b[0m', flush=True); time.sleep(0.1)"`);
    await expectClassified(monitor, 'progressing');
    await proc.exited;
    const event = await monitor.nextTickOrExit();
    expect(event.type).toBe('exit');
    expect(monitor.tail()).toContain('step 10\nstep 11\n');
    expect(monitor.tail()).not.toMatch(CONTROL);
  });
});
