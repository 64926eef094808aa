import { renderTick } from '../../src/monitor/ticks/render.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Observation } from '../../src/agents/protocol.js';
import { loadCaseFile } from '../../src/cases/load-cases.js';
import { AttemptSession } from '../../src/attempt/session.js';
import { TraceWriter } from '../../src/trace/writer.js';
import { createSandbox, probeHost } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { Action } from '../../src/types/actions.js';
import type { Case } from '../../src/types/case.js';
import { describeOnLinux } from '../support/capability.js';

const PTY_FIXTURES = path.resolve(import.meta.dirname, '../fixtures/pty');
const CASE_FILE = path.resolve(import.meta.dirname, '../fixtures/check-cases/cases/pager.yaml');

let sandbox: Sandbox | undefined;
let session: AttemptSession | undefined;
afterEach(async () => {
  await session?.shutdown('harness', 'test over');
  await sandbox?.dispose();
  sandbox = undefined;
  session = undefined;
});

async function sessionOn(terminal: Case['terminal']): Promise<AttemptSession> {
  const loaded = await loadCaseFile(CASE_FILE);
  if ('problems' in loaded) throw new Error(JSON.stringify(loaded.problems));
  const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-keys-'));
  sandbox = await createSandbox({
    attemptId: `test-keys-${process.pid}-${terminal}`,
    workspaceSource: PTY_FIXTURES,
    timeScale: 1,
    capabilities: await probeHost(),
  });
  session = new AttemptSession({
    sandbox,
    trace: new TraceWriter(path.join(dir, 'trace.jsonl')),
    testCase: { ...loaded, terminal },
    mode: { mode: 'interval', everyMs: 200 },
    renderTick: (tick) => renderTick(tick),
    onset: null,
    logDir: dir,
    signal: new AbortController().signal,
  });
  return session;
}

/** Waits through ticks until the monitor says the command waits for input (or it exits). */
async function untilWaiting(current: AttemptSession, first: Observation): Promise<Observation> {
  let observation = first;
  for (
    let ticks = 0;
    observation.type === 'tick' && observation.tick.classification !== 'blocked-on-stdin' && ticks < 50;
    ticks++
  ) {
    observation = await current.perform({ type: 'wait' });
  }
  return observation;
}

const perform = (current: AttemptSession, action: Action): Promise<Observation> => current.perform(action);

describeOnLinux('input keys through the session', () => {
  it('answers a raw-mode menu on a pty with down + enter', async () => {
    const current = await sessionOn('pty');
    const waiting = await untilWaiting(current, await perform(current, { type: 'run', command: 'node menu.mjs' }));
    expect(waiting).toMatchObject({ type: 'tick', tick: { classification: 'blocked-on-stdin' } });
    expect(await perform(current, { type: 'input', keys: ['down', 'enter'] })).toMatchObject({
      ok: true,
      message: 'sent 4 bytes to #1',
    });
    let observation = await perform(current, { type: 'wait' });
    while (observation.type === 'tick') observation = await perform(current, { type: 'wait' });
    expect(observation).toMatchObject({ type: 'exit', exit: { exitCode: 0 } });
    if (observation.type === 'exit') expect(observation.output).toContain('picked green');
  });

  it('sends arrows as the program asked for them: ESC O x once it set application cursor keys, ESC [ x before', async () => {
    const current = await sessionOn('pty');
    // Prints what it receives, byte by byte, in raw mode; $1 is sent first to set (or not) DECCKM, as less and vim do.
    const reader = (mode: string): string =>
      `printf '${mode}ready\\n'; stty raw -echo; head -c 6 | od -An -c; stty sane`;
    for (const [mode, expected] of [
      ['\\033[?1h', /033 +O +A +033 +O +B/],
      ['', /033 +\[ +A +033 +\[ +B/],
    ] as const) {
      const started = await untilWaiting(current, await perform(current, { type: 'run', command: reader(mode) }));
      expect(started).toMatchObject({ type: 'tick' });
      await perform(current, { type: 'input', keys: ['up', 'down'] });
      let observation = await perform(current, { type: 'wait' });
      while (observation.type === 'tick') observation = await perform(current, { type: 'wait' });
      expect(observation.type === 'exit' && observation.output).toMatch(expected);
    }
  });

  it('on a pipe: enter is a newline, eof closes stdin, and ctrl-c comes with a note that it signals nothing', async () => {
    const current = await sessionOn('pipe');
    await perform(current, {
      type: 'run',
      command: 'read -r line; echo "got <$line>"; cat | od -c | head -1',
      background: true,
    });
    expect(await perform(current, { type: 'input', text: 'hello', keys: ['enter'] })).toMatchObject({
      ok: true,
      message: 'sent 6 bytes to #1',
    });
    const note = await perform(current, { type: 'input', keys: ['ctrl-c'], eof: true });
    expect(note).toMatchObject({ ok: true });
    if (note.type === 'result')
      expect(note.message).toBe(
        'sent 1 bytes to #1 and closed its stdin (stdin is a pipe, not a terminal: control keys arrive as plain bytes and signal nothing; use kill to interrupt)',
      );
    let observation = await perform(current, { type: 'wait' });
    while (observation.type === 'tick') observation = await perform(current, { type: 'wait' });
    expect(observation).toMatchObject({ type: 'exit', exit: { exitCode: 0 } });
    if (observation.type === 'exit') expect(observation.output).toMatch(/got <hello>\n0000000 +003\n/);
  });

  it('on a pty, eof types ^D and keeps the keyboard: cat ends, the shell goes on reading', async () => {
    const current = await sessionOn('pty');
    await perform(current, {
      type: 'run',
      command: 'cat > typed.txt; read -r after; echo "after=<$after> typed=<$(cat typed.txt)>"',
      background: true,
    });
    expect(await perform(current, { type: 'input', text: 'abc', keys: ['enter'], eof: true })).toMatchObject({
      message: 'sent 5 bytes to #1 ending with ^D (end of input at the terminal)',
    });
    await perform(current, { type: 'input', text: 'more', keys: ['enter'] });
    let observation = await perform(current, { type: 'wait' });
    while (observation.type === 'tick') observation = await perform(current, { type: 'wait' });
    expect(observation).toMatchObject({ type: 'exit', exit: { exitCode: 0 } });
    if (observation.type === 'exit') expect(observation.output).toContain('after=<more> typed=<abc>');
  });
});
