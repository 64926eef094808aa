import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { replayAgent } from '../../src/agents/replay/agent.js';
import { HangbenchError, LimitExceeded } from '../../src/types/errors.js';
import { TRACE_SCHEMA_VERSION, TraceEventSchema } from '../../src/types/events.js';
import { agentContext, exitObservation, result, taskObservation, tick, TEST_CASE } from '../support/agent-fixtures.js';

let runDir: string;
beforeAll(async () => {
  runDir = await mkdtemp(path.join(tmpdir(), 'hangbench-replay-'));
});
afterAll(async () => {
  await rm(runDir, { recursive: true, force: true });
});

const START = {
  type: 'attempt.start',
  schemaVersion: TRACE_SCHEMA_VERSION,
  attemptId: 'a',
  caseId: TEST_CASE.id,
  kind: 'hang',
  class: 'pipe-write-block',
  variant: 'openai-minimal-1s',
  repeat: 1,
  agent: 'openai',
  timeScale: 1,
  variantSpec: {
    name: 'openai-minimal-1s',
    agent: { agent: 'openai', prompt: 'minimal' },
    monitor: { mode: 'interval', everyMs: 1000 },
  },
  monitor: { mode: 'interval', everyMs: 1000 },
  budgets: { tokens: 60_000, wallMs: 90_000, interruptMs: 45_000 },
  mechanism: 'process-group+scan',
  isolation: 'host-user',
  startedAt: '2026-01-01T00:00:00.000Z',
};

const call = (turn: number, promptTokens: number) => [
  { type: 'agent.request', turn, messages: turn * 2 },
  { type: 'agent.response', turn, usage: { promptTokens, completionTokens: 10, cachedTokens: 0 }, latencyMs: 50 },
];

/** Writes <runDir>/<case>/<variant>/<repeat>/trace.jsonl from events without seq and t. */
async function record(variant: string, events: object[], repeat = 1): Promise<void> {
  const dir = path.join(runDir, TEST_CASE.id, variant, String(repeat));
  await mkdir(dir, { recursive: true });
  const lines = [START, ...events].map((event, seq) =>
    JSON.stringify(TraceEventSchema.parse({ seq, t: seq * 10, ...event, ...(seq === 0 ? { variant, repeat } : {}) })),
  );
  await writeFile(path.join(dir, 'trace.jsonl'), `${lines.join('\n')}\n`);
}

describe('--agent replay', () => {
  test('re-issues the actions, waits until the recorded tick, reports the recorded usage again', async () => {
    await record('openai-minimal-1s', [
      ...call(1, 500),
      { type: 'action', turn: 1, action: { type: 'run', command: 'python3 build.py' } },
      ...call(2, 700),
      { type: 'decision', commandId: 1, tickSeq: 3, action: 'kill' },
      { type: 'action', turn: 2, action: { type: 'kill' } },
      ...call(3, 900),
      { type: 'action', turn: 3, action: { type: 'finish', summary: 'killed it' } },
      { type: 'attempt.end', outcome: 'completed', clean: true, wallMs: 100, agentWallMs: 90, tokens: 2130 },
    ]);
    const context = agentContext();
    const session = replayAgent(runDir).create(context);

    await expect(session.next(taskObservation())).resolves.toEqual({ type: 'run', command: 'python3 build.py' });
    await expect(session.next(tick(1))).resolves.toEqual({ type: 'wait' });
    await expect(session.next(tick(2))).resolves.toEqual({ type: 'wait' });
    await expect(session.next(tick(3))).resolves.toEqual({ type: 'kill' });
    await expect(session.next(exitObservation(true))).resolves.toMatchObject({
      type: 'finish',
      summary: expect.stringMatching(/^killed it \[replay of .*trace\.jsonl: no divergence\]$/),
    });

    expect(context.report.requests).toEqual([
      { turn: 1, messages: 2 },
      { turn: 2, messages: 4 },
      { turn: 3, messages: 6 },
    ]);
    expect(context.report.responses.map((response) => response.usage.promptTokens)).toEqual([500, 700, 900]);
    expect(context.report.notes).toEqual([]);
  });

  test('waits also until the command has printed as much as at the recorded tick, so the onset is seen again', async () => {
    const recordedTick = (commandId: number, tickSeq: number, totalOutputBytes: number) => ({
      type: 'tick',
      commandId,
      tickSeq,
      mergedSeqs: [tickSeq],
      source: 'schedule',
      elapsedMs: tickSeq * 1000,
      sinceOutputMs: 0,
      totalOutputBytes,
      output: { text: '', bytes: 0, cutBytes: 0, foldedLines: 0, partialLine: false },
      snapshot: { source: 'unavailable', processes: [] },
      classification: 'blocked-on-pipe',
      reason: 'test',
      rendered: '',
      renderedTokens: 0,
    });
    await record(
      'output-paced',
      [
        { type: 'action', turn: 1, action: { type: 'run', command: 'python3 build.py' } },
        recordedTick(1, 2, 500),
        { type: 'decision', commandId: 1, tickSeq: 2, action: 'kill' },
        { type: 'action', turn: 2, action: { type: 'kill' } },
        { type: 'action', turn: 3, action: { type: 'run', command: 'python3 build.py' } },
        recordedTick(2, 1, 500),
        { type: 'decision', commandId: 2, tickSeq: 1, action: 'kill' },
        { type: 'action', turn: 4, action: { type: 'kill' } },
      ],
      6,
    );
    const context = agentContext({ repeat: 6 });
    const session = replayAgent(runDir).create(context);
    await session.next(taskObservation());
    await expect(session.next(tick(2, { totalOutputBytes: 80 }))).resolves.toEqual({ type: 'wait' });
    await expect(session.next(tick(3, { totalOutputBytes: 500 }))).resolves.toEqual({ type: 'kill' });
    await expect(session.next(exitObservation(true))).resolves.toMatchObject({ type: 'run' });
    for (const seq of [1, 2, 3, 4])
      await expect(session.next(tick(seq, { commandId: 2, totalOutputBytes: 80 }))).resolves.toEqual({ type: 'wait' });
    await expect(session.next(tick(5, { commandId: 2, totalOutputBytes: 80 }))).resolves.toEqual({ type: 'kill' });
    expect(context.report.notes).toEqual([
      {
        kind: 'divergence',
        message:
          'turn 4 (kill) answered tick 1 after 500 bytes of output in the recording; now 80 bytes by tick 5, issuing it anyway',
      },
    ]);
  });

  test('divergences become notes: a run that now ticks is waited out; a failed result that now succeeds', async () => {
    await record(
      'diverging',
      [
        { type: 'action', turn: 1, action: { type: 'read', path: 'missing.py' } },
        { type: 'action.result', turn: 1, ok: false, message: 'read failed: no such file' },
        { type: 'action', turn: 2, action: { type: 'run', command: 'python3 build.py' } },
        { type: 'action', turn: 3, action: { type: 'finish', summary: 'done' } },
      ],
      2,
    );
    const context = agentContext({ repeat: 2 });
    const session = replayAgent(runDir).create(context);

    await session.next(taskObservation());
    await expect(session.next(result('read', true, 'missing.py: 3 characters', 'x=1'))).resolves.toMatchObject({
      type: 'run',
    });
    await expect(session.next(tick(1))).resolves.toEqual({ type: 'wait' });
    await expect(session.next(tick(2))).resolves.toEqual({ type: 'wait' });
    await expect(session.next(exitObservation(false))).resolves.toMatchObject({
      type: 'finish',
      summary: expect.stringContaining('2 divergences'),
    });

    expect(context.report.notes).toEqual([
      {
        kind: 'divergence',
        message:
          'turn 1 (read) was followed by a failed result in the recording, now by a successful result (missing.py: 3 characters)',
      },
      {
        kind: 'divergence',
        message: 'turn 2 (run) was followed by an exit in the recording, now by a tick; waiting for the exit',
      },
    ]);
  });

  test('a recording that stopped on the token budget stops the replay the same way', async () => {
    await record(
      'tokens',
      [
        ...call(1, 500),
        { type: 'action', turn: 1, action: { type: 'run', command: 'python3 build.py' } },
        { type: 'limit', kind: 'tokens', value: 61_000, limit: 60_000 },
      ],
      3,
    );
    const session = replayAgent(runDir).create(agentContext({ repeat: 3 }));
    await session.next(taskObservation());
    await expect(session.next(tick(1))).rejects.toEqual(
      new LimitExceeded('tokens', 61_000, 60_000, 'replayed from the recording'),
    );
  });

  test('a recording that ended in an endpoint error ends the replay in an error; a missing recording is an error too', async () => {
    await record(
      'errored',
      [
        {
          type: 'error',
          where: 'agent',
          message: 'EndpointError [ENDPOINT]: model endpoint http://x/v1 failed: HTTP 500',
        },
      ],
      4,
    );
    const session = replayAgent(runDir).create(agentContext({ repeat: 4 }));
    await expect(session.next(taskObservation())).rejects.toThrow(
      'replay: the recorded attempt ended in an error at this point: EndpointError [ENDPOINT]: model endpoint http://x/v1 failed: HTTP 500',
    );

    const missing = replayAgent(runDir).create(agentContext({ repeat: 9 }));
    await expect(missing.next(taskObservation())).rejects.toThrow(
      new HangbenchError('AGENT', `replay: no recording of case py-pipe-deadlock repeat 9 under ${runDir}`),
    );
  });

  test('a run with the case under several variants is refused: replay needs one', async () => {
    await record('a-variant', [], 5);
    await record('b-variant', [], 5);
    const session = replayAgent(runDir).create(agentContext({ repeat: 5 }));
    await expect(session.next(taskObservation())).rejects.toThrow(
      /recorded in several variants \(a-variant, b-variant\)/,
    );
  });
});
