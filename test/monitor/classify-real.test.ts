import { afterEach, expect, it } from 'vitest';
import { renderTick } from '../../src/monitor/index.js';
import type { Classification, ProcessSample, Tick } from '../../src/types/process.js';
import { disposeWatched, sequence, ticksUntil, waitForText, watch } from './watch.js';
import { describeOnLinux } from '../support/capability.js';

afterEach(disposeWatched);

/** Runs a fixture to its readiness line, then expects the monitor to reach `expected`. */
async function expectClassified(command: string, ready: string, expected: Classification): Promise<Tick> {
  const { tree, monitor } = await watch(command);
  await waitForText(tree, ready);
  const { match, seen } = await ticksUntil(monitor, expected);
  if (!match) expect.fail(`never classified ${expected}; saw:\n${sequence(seen)}`);
  return match;
}

const byCommand = (tick: Tick, command: RegExp): ProcessSample[] =>
  tick.snapshot.processes.filter((p) => command.test(p.command));

describeOnLinux('classification of real hangs', () => {
  it('ABBA lock deadlock → deadlock-futex', async () => {
    const tick = await expectClassified('python3 abba-deadlock.py; echo exited', 'starting transfer', 'deadlock-futex');
    const [python] = byCommand(tick, /^python/);
    expect(python?.wchan).toMatch(/futex/);
    expect(python?.threadWchans.every((wchan) => /futex/.test(wchan))).toBe(true);
    expect(python?.threads).toBe(3);
  });

  it('input() prompt without newline → blocked-on-stdin, with the prompt in the tick', async () => {
    const tick = await expectClassified(
      'python3 confirm-prompt.py; echo exited',
      'overwrite 3 files',
      'blocked-on-stdin',
    );
    expect(tick.output.text).toContain('Continue? [y/N] ');
    expect(tick.output.partialLine).toBe(true);
    expect(tick.reason).toContain('Continue? [y/N]');
    const [python] = byCommand(tick, /^python/);
    expect(python?.stdinIsHarnessPipe).toBe(true);
    expect(python?.syscall?.arg0).toBe(0);
    expect(renderTick(tick)).toContain('Continue? [y/N]');
  });

  it('readline question in an idle Node event loop → blocked-on-stdin', async () => {
    const tick = await expectClassified('node node-prompt.mjs; echo exited', 'Project name', 'blocked-on-stdin');
    expect(tick.output.partialLine).toBe(true);
    expect(byCommand(tick, /^node/)[0]?.wchan).toMatch(/epoll/);
  });

  it('busy loop → busy-no-output', async () => {
    const tick = await expectClassified('python3 busy-loop.py; echo exited', 'fixed point', 'busy-no-output');
    expect(tick.reason).toMatch(/^python3 \(pid \d+, R\b.*% CPU/);
  });

  it('Popen(stdout=PIPE).wait() with a chatty child → blocked-on-pipe', async () => {
    const tick = await expectClassified(
      'python3 popen-pipe-wait.py; echo exited',
      'waiting for it to finish',
      'blocked-on-pipe',
    );
    const wchans = byCommand(tick, /^python/).map((p) => p.wchan);
    expect(wchans.some((wchan) => /pipe_write/.test(wchan))).toBe(true);
    expect(wchans.some((wchan) => /do_wait/.test(wchan))).toBe(true);
  });

  it('bash sleeping → sleeping, about the sleep rather than bash', async () => {
    const tick = await expectClassified('bash sleep-forever.sh', 'warm up', 'sleeping');
    expect(tick.reason).toMatch(/^sleep \(pid \d+, S in \w*nanosleep\)/);
  });

  it('a parent waiting for a stopped child → stopped', async () => {
    const tick = await expectClassified('bash stopped-child.sh', 'post-install hook', 'stopped');
    expect(tick.snapshot.processes.some((p) => p.state === 'T')).toBe(true);
  });

  it('a child blocked on a lock its parent holds → waiting-on-child', async () => {
    const tick = await expectClassified('bash lock-wait.sh', 'acquiring build lock', 'waiting-on-child');
    expect(byCommand(tick, /^flock$/)[0]?.wchan).toMatch(/lock/);
  });

  it('a prompt reading a pipe from another process, not the agent, is not blocked-on-stdin', async () => {
    const { tree, monitor } = await watch('sleep 1000 | python3 confirm-prompt.py');
    await waitForText(tree, 'overwrite 3 files');
    const { match, seen } = await ticksUntil(monitor, 'waiting-on-child');
    if (!match) expect.fail(`never classified waiting-on-child; saw:\n${sequence(seen)}`);
    expect(seen.some((tick) => tick.classification === 'blocked-on-stdin')).toBe(false);
    expect(byCommand(match, /^python/)[0]).toMatchObject({
      stdinIsHarnessPipe: false,
      wchan: expect.stringMatching(/pipe_read/),
    });
  });

  it('root exited while a background child holds the output → zombie', async () => {
    const { tree, monitor } = await watch('bash orphan-holds-pipe.sh');
    await waitForText(tree, 'server started');
    const { match, seen } = await ticksUntil(monitor, 'zombie');
    if (!match) expect.fail(`never classified zombie; saw:\n${sequence(seen)}`);
    expect(monitor.exited).toBe(false);
  });

  it('a line every 100 ms → progressing on every tick that saw a line', async () => {
    const { tree, monitor } = await watch('python3 ticker.py', { mode: { mode: 'interval', everyMs: 250 } });
    await waitForText(tree, '[1]');
    const ticks: Tick[] = [];
    for (let i = 0; i < 4; i++) {
      const event = await monitor.nextTickOrExit();
      if (event.type === 'tick') ticks.push(event.tick);
    }
    // A loaded machine may starve the ticker through a whole 250 ms tick; a tick with new lines is always progress.
    const withOutput = ticks.filter((tick) => tick.output.bytes > 0);
    expect(withOutput.length).toBeGreaterThan(0);
    for (const tick of withOutput)
      expect({ seq: tick.seq, classification: tick.classification }).toEqual({
        seq: tick.seq,
        classification: 'progressing',
      });
    expect(withOutput.at(-1)?.output.text).toMatch(/migrating table_\d+ \.\.\. ok/);
  });
});
