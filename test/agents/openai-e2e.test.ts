import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countTokens } from '../../src/agents/tokens.js';
import { runEval } from '../../src/run/run-eval.js';
import { readTrace } from '../../src/scorers/index.js';
import type { EvalOptionsInput } from '../../src/run/options.js';
import type { TraceEvent } from '../../src/types/events.js';
import {
  startFakeOpenAI,
  type FakeOpenAI,
  type RecordedRequest,
  type ScriptedReply,
} from '../support/fake-openai-server.js';
import { TEST_KEY } from './openai-helpers.js';
import { CASE_FILE, fixFromSolutionPatch, REPO, solvingModel, type Fix } from './scripted-model.js';

let out: string;
let fix: Fix;
const savedKey = process.env.OPENAI_API_KEY;

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'hangbench-openai-e2e-'));
  fix = await fixFromSolutionPatch();
  process.env.OPENAI_API_KEY = TEST_KEY;
});
afterAll(async () => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  await rm(out, { recursive: true, force: true });
});

async function runWith(
  script: (request: RecordedRequest, index: number) => ScriptedReply,
  runId: string,
  extra: EvalOptionsInput = {},
) {
  const server: FakeOpenAI = await startFakeOpenAI(script);
  try {
    const result = await runEval({
      caseInputs: [CASE_FILE],
      agent: 'openai',
      model: 'scripted',
      baseUrl: server.baseURL,
      prompt: 'diagnostic',
      timeScale: 0.1,
      intervalMs: 1000,
      concurrency: 1,
      out,
      runId,
      cwd: REPO,
      ...extra,
    });
    const attempt = result.summary.attempts[0];
    if (!attempt) throw new Error('no attempt ran');
    const events = await readTrace(
      path.join(result.runDir, attempt.caseId, attempt.variant, String(attempt.repeat), 'trace.jsonl'),
    );
    return { result, attempt, events, server };
  } finally {
    await server.close();
  }
}

function ofType<K extends TraceEvent['type']>(
  events: readonly TraceEvent[],
  type: K,
): Array<Extract<TraceEvent, { type: K }>> {
  return events.filter((event): event is Extract<TraceEvent, { type: K }> => event.type === type);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('--agent openai end to end (local fake endpoint, py-pipe-deadlock at time scale 0.1)', () => {
  test('solves the case: runs the repro, kills at a quiet tick, edits the fix, re-runs; ticks rendered and counted; no key anywhere', async () => {
    const { result, attempt, events, server } = await runWith((request) => solvingModel(fix)(request), 'solved');

    expect(attempt.outcome).toBe('completed');
    expect(attempt.scores).toMatchObject({
      reproduced: true,
      interrupted: true,
      fixed: true,
      within_budget: true,
      clean: true,
      solved: true,
    });
    expect(attempt.variant).toBe('openai-diagnostic·interval-1s');
    expect(ofType(events, 'attempt.start')[0]?.variantSpec.agent).toMatchObject({
      agent: 'openai',
      prompt: 'diagnostic',
    });
    const actions = ofType(events, 'action').map((event) => event.action.type);
    expect(actions.filter((type) => type !== 'wait')).toEqual(['run', 'kill', 'edit', 'run', 'finish']);
    // Every tick in the trace is one the model was sent, word for word, with its own token count.
    const ticks = ofType(events, 'tick');
    expect(ticks.length).toBeGreaterThan(0);
    const sent = server.requests.flatMap((request) => request.body.messages.map((message) => String(message.content)));
    for (const tick of ticks) {
      expect(tick.rendered).toContain('monitor report');
      expect(tick.renderedTokens).toBe(countTokens(tick.rendered));
      expect(sent.some((content) => content.includes(tick.rendered))).toBe(true);
    }
    const kill = ofType(events, 'decision').find((decision) => decision.action === 'kill');
    expect(ticks.map((tick) => tick.tickSeq)).toContain(kill?.tickSeq);
    expect(ofType(events, 'agent.response').map((event) => event.usage.promptTokens)).toEqual(
      server.requests.map(() => 100),
    );
    expect(attempt.tokens).toBe(server.requests.length * 120);

    for (const file of await filesUnder(result.runDir))
      expect(await readFile(file, 'utf8'), file).not.toContain(TEST_KEY);
  });

  test('token budget: stops before the call that would go over, records a tokens limit, still verifies and scores', async () => {
    // Cheap calls until a tick shows the build has printed (its onset line), then one that leaves too little for another.
    const printed = (request: RecordedRequest) =>
      request.body.messages.some(
        (message) => message.role === 'tool' && /compiling 12 units|last output/.test(String(message.content)),
      );
    const { attempt, events, server } = await runWith((request, index) => {
      if (index === 0) return { toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }] };
      return {
        toolCalls: [{ name: 'wait' }],
        usage: printed(request) ? { prompt: 32_000, completion: 40 } : { prompt: 100, completion: 20 },
      };
    }, 'tokens');

    expect(server.requests.filter(printed)).toHaveLength(1);
    const [limit] = ofType(events, 'limit');
    expect(limit).toMatchObject({ kind: 'tokens', limit: 60_000 });
    expect(limit?.value).toBeGreaterThan(60_000);
    expect(attempt.tokens).toBe(32_040 + (server.requests.length - 1) * 120);
    expect(ofType(events, 'verify').length).toBeGreaterThan(0);
    expect(
      ofType(events, 'kill')
        .filter((kill) => kill.by !== 'verify-timeout')
        .map((kill) => kill.by),
    ).toEqual(['budget']);
    expect(attempt.outcome).toBe('limit');
    expect(attempt.scores).toMatchObject({
      reproduced: true,
      interrupted: false,
      fixed: false,
      within_budget: false,
      solved: false,
    });
  });

  test('a 429 with retry-after is retried (each retry in the trace) and the attempt still solves', async () => {
    const solve = solvingModel(fix);
    const { attempt, events, server } = await runWith(
      (request, index) =>
        index === 0 ? { kind: 'fault', status: 429, headers: { 'retry-after-ms': '20' } } : solve(request),
      'rate-limited',
    );

    expect(ofType(events, 'agent.note')).toContainEqual(
      expect.objectContaining({
        kind: 'retry',
        message: expect.stringMatching(/^HTTP 429 .* in 20ms \(retry-after\)$/),
      }),
    );
    expect(server.requests[0]?.body).toEqual(server.requests[1]?.body);
    expect(attempt.scores.solved).toBe(true);
  });

  test('malformed tool arguments come back to the model as an error tool result, and the attempt still solves', async () => {
    const solve = solvingModel(fix);
    const { attempt, server } = await runWith(
      (request, index) =>
        index === 0 ? { toolCalls: [{ name: 'run', arguments: '{"command": "python3 build.py"' }] } : solve(request),
      'malformed',
    );

    const answer = server.requests[1]?.body.messages.at(-1);
    expect(answer?.role).toBe('tool');
    expect(String(answer?.content)).toMatch(
      /^error: the arguments of run are not valid JSON .*expected arguments \(JSON Schema\)/,
    );
    expect(attempt.scores.solved).toBe(true);
  });

  test.each(['minimal', 'minimal-user', 'no-output'])('the %s prompt style solves it too', async (prompt) => {
    // The no-output wording is meant for the no-output schedule: a tick only after 0.5 s (5 s scaled) of silence,
    // longer than python's start-up, so the first one comes once the build has printed and hung.
    const schedule: EvalOptionsInput = prompt === 'no-output' ? { mode: 'no-output', intervalMs: 5000 } : {};
    const { attempt, events, server } = await runWith((request) => solvingModel(fix)(request), `prompt-${prompt}`, {
      prompt,
      ...schedule,
    });

    expect(attempt.scores, JSON.stringify(ofType(events, 'action').map((event) => event.action.type))).toMatchObject({
      solved: true,
    });
    const ticks = ofType(events, 'tick');
    expect(ticks.length).toBeGreaterThan(0);
    expect(ticks.every((tick) => tick.renderedTokens === countTokens(tick.rendered))).toBe(true);
    expect(server.requests.length).toBeGreaterThanOrEqual(ticks.length);
  });

  test('two prompts compare in one run: one variant each, the same case under both', async () => {
    const { result } = await runWith((request) => solvingModel(fix)(request), 'two-prompts', {
      prompt: ['minimal', 'diagnostic'],
    });

    expect(result.summary.attempts.map((attempt) => attempt.variant).sort()).toEqual([
      'openai-diagnostic·interval-1s',
      'openai-minimal·interval-1s',
    ]);
    expect(result.summary.attempts.every((attempt) => attempt.scores.solved)).toBe(true);
  });

  test('an endpoint that refuses the key ends the attempt as an ERROR that says why, without the key', async () => {
    const { result, attempt, events } = await runWith(
      () => ({ kind: 'fault', status: 401, message: `Incorrect API key provided: ${TEST_KEY}` }),
      'unauthorized',
    );

    expect(attempt.outcome).toBe('error');
    const [error] = ofType(events, 'error');
    expect(error?.message).toMatch(
      /^EndpointError \[ENDPOINT\]: model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 failed: HTTP 401 — check OPENAI_API_KEY \(never shown\) and --base-url; 1 try, not retryable$/,
    );
    for (const file of await filesUnder(result.runDir))
      expect(await readFile(file, 'utf8'), file).not.toContain(TEST_KEY);
  });

  test('replay of the solved run reproduces its scores without a model', async () => {
    const recorded = await runWith((request) => solvingModel(fix)(request), 'to-replay');
    expect(recorded.attempt.scores.solved).toBe(true);
    const replay = await runEval({
      caseInputs: [CASE_FILE],
      agent: 'replay',
      from: recorded.result.runDir,
      timeScale: 0.1,
      intervalMs: 1000,
      concurrency: 1,
      out,
      runId: 'replayed',
      cwd: REPO,
    });
    const replayed = replay.summary.attempts[0];

    const { hint_given: recordedHintGiven } = recorded.attempt.scores;
    // Latencies and the hang's duration (and so the tokens that fell inside it) are timings of the fresh run; every other score must match.
    // A hint comes with an observation at a time of the fresh run, so whether a recorded action falls after it is a timing too:
    // with a hint given, hint_to_action is a latency or null; without one it must stay null.
    const hintToAction =
      recordedHintGiven === true ? expect.toSatisfy((v: unknown) => v === null || typeof v === 'number') : null;
    const timed = {
      interrupt_latency: expect.any(Number),
      hint_to_action: hintToAction,
      hang_tax_ms: expect.any(Number),
      hang_tax_tokens: expect.any(Number),
    };
    expect(replayed?.scores).toMatchObject({ ...recorded.attempt.scores, ...timed });
    expect(replayed?.tokens).toBe(recorded.attempt.tokens);
    expect(replayed?.outcome).toBe('completed');
  });
});
