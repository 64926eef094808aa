import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/agents/protocol.js';
import { loadTokenizer } from '../../src/agents/tokens.js';
import { renderTick } from '../../src/monitor/ticks/render.js';
import { loadCaseFile } from '../../src/cases/load-cases.js';
import { AttemptSession } from '../../src/attempt/session.js';
import { TraceWriter } from '../../src/trace/writer.js';
import { createSandbox, probeHost, type Sandbox } from '../../src/sandbox/index.js';
import type { EventOf } from '../../src/types/events.js';
import type { Onset } from '../../src/types/case.js';
import type { MonitorMode } from '../../src/modes/index.js';

const WORKSPACE = path.resolve(import.meta.dirname, '../fixtures/monitor');
const CASE_FILE = path.resolve(import.meta.dirname, '../fixtures/check-cases/cases/pager.yaml');
/** Prints a line every 100 ms for 0.6 s, then stays silent: the shape that tells the modes apart. */
const CHATTY_THEN_SILENT = 'for i in 1 2 3 4 5 6; do echo "line $i"; sleep 0.1; done; sleep 30';

let sandbox: Sandbox | undefined;
let session: AttemptSession | undefined;
let trace: TraceWriter | undefined;
let runs = 0;
// The runner loads the tokenizer before any attempt (its first load blocks the event loop); so do these tests.
loadTokenizer();
afterEach(async () => {
  await session?.shutdown('harness', 'test over');
  trace?.close();
  await sandbox?.dispose();
  sandbox = undefined;
  session = undefined;
  trace = undefined;
});

/** A real attempt session (real sandbox, real processes, real monitor) in the given mode, with the default tick. */
async function sessionIn(
  mode: MonitorMode,
  onset: Onset | null = null,
): Promise<{ session: AttemptSession; trace: TraceWriter }> {
  const loaded = await loadCaseFile(CASE_FILE);
  if ('problems' in loaded) throw new Error(JSON.stringify(loaded.problems));
  const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-modes-'));
  sandbox = await createSandbox({
    attemptId: `test-modes-${process.pid}-${++runs}`,
    workspaceSource: WORKSPACE,
    timeScale: 1,
    capabilities: await probeHost(),
  });
  trace = new TraceWriter(path.join(dir, 'trace.jsonl'));
  session = new AttemptSession({
    sandbox,
    trace,
    testCase: { ...loaded, terminal: 'pipe' },
    mode,
    renderTick: (tick) => renderTick(tick),
    onset,
    logDir: dir,
    signal: new AbortController().signal,
  });
  return { session, trace };
}

/** Waits (each wait a tick or a status) until the trace has the onset; a few seconds at most. */
async function untilOnset(session: AttemptSession, writer: TraceWriter): Promise<void> {
  for (let tries = 0; tries < 20 && !writer.events.some((event) => event.type === 'onset'); tries++)
    await session.perform({ type: 'wait', timeout: 0.2 });
}

function ticksOf(writer: TraceWriter): Array<EventOf<'tick'>> {
  return writer.events.filter((event): event is EventOf<'tick'> => event.type === 'tick');
}

/** Waits through every observation until the command exits, returning what the agent was told on the way. */
async function waitToExit(current: AttemptSession, first: Observation, limit = 50): Promise<Observation[]> {
  const seen = [first];
  let observation = first;
  while (observation.type !== 'exit' && seen.length < limit) {
    observation = await current.perform({ type: 'wait' });
    seen.push(observation);
  }
  return seen;
}

describe('monitor modes on real processes', () => {
  it('interval: a tick at every multiple of the period, each delivered with its due time and rendered text', async () => {
    const { session, trace } = await sessionIn({ mode: 'interval', everyMs: 200 });
    let observation = await session.perform({ type: 'run', command: 'sleep 30' });
    for (let i = 0; i < 3; i += 1) {
      expect(observation.type).toBe('tick');
      observation = await session.perform({ type: 'wait' });
    }
    const ticks = ticksOf(trace);
    // Deadlines a loaded machine made the harness miss are skipped, never bunched: multiples of 200, rising.
    const due = ticks.map((tick) => tick.dueMs!);
    expect(due).toHaveLength(4);
    for (const [i, dueMs] of due.entries()) {
      expect(dueMs % 200).toBe(0);
      expect(dueMs).toBeGreaterThan(i === 0 ? 0 : due[i - 1]!);
    }
    for (const tick of ticks) {
      expect(tick.elapsedMs).toBeGreaterThanOrEqual(tick.dueMs! - 1);
      expect(tick.source).toBe('schedule');
      expect(tick.rendered).toMatch(new RegExp(`^\\[tick ${tick.tickSeq} · `));
    }
  });

  it('a tick names each process by the pid the command itself sees (its PID namespace under bubblewrap)', async () => {
    const { session } = await sessionIn({ mode: 'interval', everyMs: 300 });
    const observation = await session.perform({ type: 'run', command: 'echo "my pid is $$"; exec sleep 30' });

    expect(observation.type).toBe('tick');
    if (observation.type !== 'tick') return;
    const seen = /my pid is (\d+)/.exec(observation.tick.output.text)?.[1];
    expect(seen).toBeDefined();
    // `exec` keeps the pid: the sleep is the process the command printed the pid of.
    expect(observation.text).toMatch(new RegExp(`^\\s*${seen} sleep `, 'm'));
  });

  it('no-output: no tick while output flows; the first once the period passed in silence, then one each period', async () => {
    const { session, trace } = await sessionIn({ mode: 'no-output', afterMs: 300 });
    let observation = await session.perform({ type: 'run', command: CHATTY_THEN_SILENT });
    observation = await session.perform({ type: 'wait' });
    expect(observation.type).toBe('tick');
    const [first, second] = ticksOf(trace);
    // The command printed for 0.5 s or more: the first tick comes 300 ms after its last line, never during the output.
    expect(first!.dueMs!).toBeGreaterThanOrEqual(800);
    expect(first!.sinceOutputMs).toBeGreaterThanOrEqual(299);
    expect(first!.output.text).toContain('line 6');
    // Then one per period of silence (a deadline missed under load is skipped, so a whole number of periods).
    const gap = second!.dueMs! - first!.dueMs!;
    expect(gap).toBeGreaterThan(0);
    expect(gap % 300).toBe(0);
    expect(second!.output.bytes).toBe(0);
  });

  it("the onset and the agent's kill record how far the tick clock fell behind the wall, in a mode with a schedule", async () => {
    const { session, trace } = await sessionIn({ mode: 'interval', everyMs: 300 }, { output: 'waiting now' });
    await session.perform({ type: 'run', command: 'echo waiting now; exec sleep 30' });
    await untilOnset(session, trace);
    await session.perform({ type: 'kill' });
    const onset = trace.events.find((event) => event.type === 'onset');
    const kill = trace.events.find((event) => event.type === 'kill');
    // The interrupt latency subtracts the difference (src/scorers/interrupted.ts); a quiet machine takes next to nothing.
    expect(onset).toMatchObject({ cpuWaitMs: expect.any(Number) });
    expect(kill).toMatchObject({ by: 'agent', cpuWaitMs: expect.any(Number) });
  });

  it('poll: no clock behind the ticks, so the onset and the kill carry none (the latency is wall time)', async () => {
    const { session, trace } = await sessionIn({ mode: 'poll' }, { output: 'waiting now' });
    await session.perform({ type: 'run', command: 'echo waiting now; exec sleep 30' });
    await untilOnset(session, trace);
    await session.perform({ type: 'kill', id: 1 });
    expect(trace.events.find((event) => event.type === 'onset')).not.toHaveProperty('cpuWaitMs');
    expect(trace.events.find((event) => event.type === 'kill')).not.toHaveProperty('cpuWaitMs');
  });

  it('backoff: ticks at N, 2N, 4N', async () => {
    const { session, trace } = await sessionIn({ mode: 'backoff', firstMs: 150, factor: 2, maxMs: 10_000 });
    let observation = await session.perform({ type: 'run', command: 'sleep 30' });
    while (ticksOf(trace).length < 3) observation = await session.perform({ type: 'wait' });
    expect(observation.type).toBe('tick');
    // Each deadline is 150 ms times a power of 2, rising (one missed under load is skipped, not bunched).
    const due = ticksOf(trace).map((tick) => tick.dueMs!);
    for (const [i, dueMs] of due.entries()) {
      expect(Number.isInteger(Math.log2(dueMs / 150))).toBe(true);
      expect(dueMs).toBeGreaterThan(i === 0 ? 0 : due[i - 1]!);
    }
  });

  it('timeout: no tick at all; the harness ends the command at T and the agent is told it was the timeout', async () => {
    const { session, trace } = await sessionIn({ mode: 'timeout', afterMs: 400 });
    const observation = await session.perform({ type: 'run', command: 'sleep 30' });

    expect(observation.type).toBe('exit');
    if (observation.type !== 'exit') return;
    expect(observation.kill).toMatchObject({ by: 'timeout', reason: 'timeout mode: still running after 400ms' });
    // durationMs is the sandbox's own clock from spawn; a few ms either side of the monitor's deadline.
    expect(observation.exit.durationMs).toBeGreaterThanOrEqual(380);
    expect(ticksOf(trace)).toEqual([]);
    expect(trace.events.filter((event) => event.type === 'kill')).toMatchObject([{ by: 'timeout' }]);
  });

  it('poll: run returns at once with the id; poll gives a status; wait with a timeout returns the status; a background exit is announced', async () => {
    const { session, trace } = await sessionIn({ mode: 'poll' });
    const started = await session.perform({ type: 'run', command: CHATTY_THEN_SILENT });
    expect(started).toMatchObject({
      type: 'result',
      action: 'run',
      ok: true,
      message: expect.stringMatching(/^started #1 \(pid \d+\); poll \{id: 1\}/),
    });

    const status = await session.perform({ type: 'poll', id: 1 });
    expect(status.type).toBe('tick');
    const waited = await session.perform({ type: 'wait', id: 1, timeout: 0.3 });
    expect(waited.type).toBe('tick');
    expect(ticksOf(trace).map((tick) => tick.source)).toEqual(['status', 'status']);

    await session.perform({ type: 'run', command: 'echo quick' });
    // The quick command exits while nobody waits for it: the next observation, whatever it is, says so.
    await expect
      .poll(() => trace.events.some((event) => event.type === 'command.exit' && event.commandId === 2), {
        timeout: 10_000,
        interval: 20,
      })
      .toBe(true);
    const next = await session.perform({ type: 'poll', id: 1 });
    expect(next.notices).toEqual([expect.stringMatching(/^background command #2 exited with code 0 after /)]);
    const again = await session.perform({ type: 'wait', id: 2 });
    expect(again).toMatchObject({ type: 'exit', commandId: 2, exit: { exitCode: 0 } });
    expect(again.notices).toBeUndefined();
  });

  it('wait with until_quiet returns once the output has been still that long', async () => {
    const { session } = await sessionIn({ mode: 'poll' });
    await session.perform({ type: 'run', command: CHATTY_THEN_SILENT });
    const quiet = await session.perform({ type: 'wait', until_quiet: 0.25 });

    expect(quiet.type).toBe('tick');
    if (quiet.type !== 'tick') return;
    // Not how long the wait took: on a loaded machine the output may already have been quiet when it began.
    expect(quiet.tick.sinceOutputMs).toBeGreaterThanOrEqual(249);
    expect(quiet.tick.output.text + quiet.text).toMatch(/line \d/);
  });

  it('wait-pid: no tick is ever delivered; run parks until the command exits', async () => {
    const { session, trace } = await sessionIn({ mode: 'wait-pid' });
    const observation = await session.perform({ type: 'run', command: 'echo start; sleep 0.6; echo done' });
    const seen = await waitToExit(session, observation);

    expect(seen.map((item) => item.type)).toEqual(['exit']);
    if (observation.type === 'exit') expect(observation.output).toContain('done');
    expect(ticksOf(trace)).toEqual([]);
  });
});
