import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { GATE_COMMAND_BASE, GateKeeper } from '../../src/attempt/gates.js';
import { TraceWriter } from '../../src/trace/writer.js';
import type { Gate } from '../../src/types/case.js';
import { attemptMarkerProcesses } from '../support/proc-scan.js';
import { sandboxPerTest } from '../sandbox/helpers.js';
import { describeOnLinux } from '../support/capability.js';

const gate = (run: string, fields: Partial<Gate> = {}): Gate => ({
  run,
  timeout: 20_000,
  exit: 0,
  retries: 2,
  ...fields,
});

const newSandbox = sandboxPerTest();

async function keeper(gates: readonly Gate[]) {
  const sandbox = await newSandbox('gates');
  const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-gates-'));
  const trace = new TraceWriter(path.join(dir, 'trace.jsonl'));
  const settings = { timeScale: 1, floorMs: 0, terminal: 'pipe' as const, logDir: dir };
  return { sandbox, trace, gates: new GateKeeper(gates, sandbox, trace, settings) };
}

describeOnLinux('GateKeeper', () => {
  it('passes a round when every gate exits as expected and its output matches', async () => {
    const { gates, trace } = await keeper([
      gate('echo "Tests: 3 passed"', { stdout: '/Tests: \\d+ passed/' }),
      gate('true'),
    ]);
    await expect(gates.onFinish()).resolves.toEqual({ kind: 'passed' });
    expect(trace.events.map((event) => event.type)).toEqual(['gate.start', 'gate.result', 'gate.start', 'gate.result']);
    expect(trace.events[1]).toMatchObject({
      type: 'gate.result',
      round: 1,
      gate: 0,
      passed: true,
      exitCode: 0,
      reason: '',
      failures: 0,
    });
  });

  it('stops at the first failing gate and tells which, with its exit, the end of its output and the retries left', async () => {
    const { gates, trace } = await keeper([gate('echo "2 failed" >&2; exit 3'), gate('true')]);
    await expect(gates.onFinish()).resolves.toEqual({
      kind: 'failed',
      failure: {
        gate: 0,
        command: 'echo "2 failed" >&2; exit 3',
        exitCode: 3,
        timedOut: false,
        reason: 'exit code 3 (expected 0)',
        output: '2 failed\n',
        retriesLeft: 1,
      },
    });
    expect(trace.events.filter((event) => event.type === 'gate.start')).toHaveLength(1);
  });

  it('accepts the finish once a gate has failed retries + 1 times, and passes when the agent fixed it', async () => {
    const { gates, sandbox, trace } = await keeper([gate('test -f fixed.txt', { retries: 1 })]);
    expect((await gates.onFinish()).kind).toBe('failed');
    expect((await gates.onFinish()).kind).toBe('accepted');
    await sandbox.writeFile('fixed.txt', 'yes');
    expect((await gates.onFinish()).kind).toBe('passed');
    expect(gates.rounds).toBe(3);
    const results = trace.events.flatMap((event) =>
      event.type === 'gate.result' ? [[event.round, event.passed, event.failures]] : [],
    );
    expect(results).toEqual([
      [1, false, 1],
      [2, false, 2],
      [3, true, 2],
    ]);
  });

  it('kills a gate that hangs at its timeout as a harness kill, records it, and leaves nothing running', async () => {
    const { gates, trace, sandbox } = await keeper([gate('echo started; sleep 600', { timeout: 300 })]);
    const verdict = await gates.onFinish();
    expect(verdict).toMatchObject({
      kind: 'failed',
      failure: {
        timedOut: true,
        exitCode: null,
        output: 'started\n',
        reason: expect.stringMatching(/^timed out after 300ms.*\(killed: it was still running\)$/),
      },
    });
    const kill = trace.events.find((event) => event.type === 'kill');
    expect(kill).toMatchObject({ by: 'harness', commandId: GATE_COMMAND_BASE, survivors: [] });
    expect(trace.events.find((event) => event.type === 'gate.start')).toMatchObject({
      commandId: GATE_COMMAND_BASE,
      timeoutMs: 300,
    });
    expect((await sandbox.leakScan()).clean).toBe(true);
    expect(attemptMarkerProcesses(`test-gates-${process.pid}-`)).toEqual([]);
  });

  it('a stopped attempt kills the running gate and rejects with the stop reason', async () => {
    const { gates, trace } = await keeper([gate('echo ready; sleep 600')]);
    const stop = new AbortController();
    trace.onEvent((event) => {
      if (event.type === 'gate.start') setImmediate(() => stop.abort(new Error('wall budget')));
    });
    await expect(gates.onFinish(stop.signal)).rejects.toThrow('wall budget');
    expect(trace.events.find((event) => event.type === 'gate.result')).toMatchObject({
      passed: false,
      reason: 'the attempt stopped while the gate ran',
    });
    expect(trace.events.find((event) => event.type === 'kill')).toMatchObject({
      by: 'harness',
      reason: 'attempt stopped during a gate',
    });
  });

  it('runs no round and writes nothing for a case without gates', async () => {
    const { gates, trace } = await keeper([]);
    await expect(gates.onFinish()).resolves.toEqual({ kind: 'passed' });
    expect(gates.rounds).toBe(0);
    expect(trace.events).toEqual([]);
  });
});
