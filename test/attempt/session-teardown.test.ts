import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { AttemptSession } from '../../src/attempt/session.js';
import { loadCaseFile } from '../../src/cases/load-cases.js';
import { renderTick } from '../../src/monitor/ticks/render.js';
import { ObservedProcess } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { TraceWriter } from '../../src/trace/writer.js';
import type { EventOf, TraceEvent } from '../../src/types/events.js';

/** session.shutdown waits for each killed command's exit, which comes from outside the harness: that wait has a deadline. */

const CASE_FILE = path.resolve(import.meta.dirname, '../fixtures/installed/sleep-forever.yaml');
const children: ChildProcess[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ofType = <K extends TraceEvent['type']>(events: readonly TraceEvent[], type: K): EventOf<K>[] =>
  events.filter((event): event is EventOf<K> => event.type === type);

test('an observed command whose shim never reports its exit (it holds the output pipe, alive) is given up on at the deadline, and that is recorded', async () => {
  const loaded = await loadCaseFile(CASE_FILE);
  if ('problems' in loaded) throw new Error(JSON.stringify(loaded.problems));
  dir = await mkdtemp(path.join(tmpdir(), 'hangbench-teardown-'));
  const outputFile = path.join(dir, 'shim.out');
  await writeFile(outputFile, '');
  // Stands in for a shim that will never write `.done`: it outlives its command, holding the pipe its child writes to.
  const shim = spawn('bash', ['-c', `sleep 100000 | cat >> ${outputFile}; sleep 100000`], { stdio: 'ignore' });
  children.push(shim);
  const trace = new TraceWriter(path.join(dir, 'trace.jsonl'));
  const session = new AttemptSession({
    sandbox: {} as Sandbox,
    trace,
    testCase: loaded,
    mode: { mode: 'none', everyMs: 500 },
    renderTick: (tick) => renderTick(tick),
    onset: null,
    logDir: dir,
    signal: new AbortController().signal,
    teardownWaitMs: 1_000,
  });
  const process = new ObservedProcess({ commandId: 1, command: 'bash serve.sh', hostPid: shim.pid!, outputFile });
  session.observe(process, null);
  // its children show up in the tree
  await expect.poll(() => process.pids().length, { timeout: 5_000 }).toBeGreaterThan(0);
  const started = performance.now();
  await session.shutdown('budget', 'attempt stopped: wall');
  const tookMs = performance.now() - started;
  trace.close();
  const { events } = trace;
  expect(ofType(events, 'kill')[0]).toMatchObject({ commandId: 1, by: 'budget' });
  expect(ofType(events, 'wait.expired')).toEqual([
    expect.objectContaining({ what: "command #1's exit after its kill", waitedMs: expect.any(Number) }),
  ]);
  expect(ofType(events, 'command.exit')[0]).toMatchObject({ commandId: 1, exitCode: null, signal: null, killed: true });
  // the kill's escalation (a few graces) and the one-second deadline, not forever
  expect(tookMs).toBeLessThan(10_000);
});
