import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { GATE_COMMAND_BASE } from '../../src/attempt/gates.js';
import type { EvalOptionsInput } from '../../src/run/options.js';
import { runEval } from '../../src/run/run-eval.js';
import { readTrace } from '../../src/scorers/index.js';
import type { EventOf, TraceEvent } from '../../src/types/events.js';
import type { AttemptScores } from '../../src/types/scores.js';
import {
  startFakeOpenAI,
  type ChatRequestBody,
  type RecordedRequest,
  type ScriptedReply,
} from '../support/fake-openai-server.js';
import { TEST_KEY } from '../agents/openai-helpers.js';
import { collector } from '../support/collector.js';
import { describeOnLinux } from '../support/capability.js';

/** Gates and hints through whole attempts (runEval), on a deploy script that waits for a confirmation nobody gives. */

const REPO = path.resolve(import.meta.dirname, '../..');
const CASE_FILE = path.join(REPO, 'test/fixtures/loop/gated-confirm.yaml');
const LINES_AGENT = path.join(REPO, 'test/agents/fixtures/lines-agent.mjs');
const FIXED = 'echo "about to deploy 3 services"\nprintf \'Proceed? [y/N] \'\nanswer=y\necho "deployed"\n';
const HEARTBEAT = '[command #1 is still running. Wait for it, or kill it?]';

let out: string;
const savedKey = process.env.OPENAI_API_KEY;
beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'hangbench-loop-'));
  process.env.OPENAI_API_KEY = TEST_KEY;
});
afterAll(async () => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  await rm(out, { recursive: true, force: true });
});

interface Ran {
  readonly runDir: string;
  readonly attempts: ReadonlyArray<{ readonly scores: AttemptScores; readonly events: TraceEvent[] }>;
}

async function run(runId: string, extra: EvalOptionsInput): Promise<Ran> {
  const result = await runEval({
    caseInputs: [CASE_FILE],
    timeScale: 1,
    mode: 'interval',
    intervalMs: 300,
    verifyFloorMs: 500,
    concurrency: 1,
    out,
    runId,
    cwd: REPO,
    ...extra,
  });
  const attempts = await Promise.all(
    result.summary.attempts.map(async (scores) => ({
      scores,
      events: await readTrace(
        path.join(result.runDir, scores.caseId, scores.variant, String(scores.repeat), 'trace.jsonl'),
      ),
    })),
  );
  return { runDir: result.runDir, attempts };
}

function only(ran: Ran): { scores: AttemptScores; events: TraceEvent[] } {
  const [attempt] = ran.attempts;
  if (!attempt || ran.attempts.length !== 1) throw new Error(`expected one attempt, got ${ran.attempts.length}`);
  return attempt;
}

const ofType = <K extends TraceEvent['type']>(events: readonly TraceEvent[], type: K): EventOf<K>[] =>
  events.filter((event): event is EventOf<K> => event.type === type);

/** Each hint came after its trigger, with a tick observation the agent then answered. */
function expectHintsAtTriggers(events: readonly TraceEvent[]): void {
  const hints = ofType(events, 'hint');
  expect(hints.map((hint) => hint.text.slice(0, 7))).toEqual(['H-ONSET', 'H-TICKS']);
  const onset = ofType(events, 'onset')[0];
  expect(hints[0]?.dueMs).toBe((onset?.t ?? Number.NaN) + 50);
  const decisions = ofType(events, 'decision');
  for (const hint of hints) {
    expect(hint.t).toBeGreaterThanOrEqual(hint.dueMs);
    expect(decisions.some((decision) => decision.seq > hint.seq)).toBe(true);
  }
  const decisionsBefore = decisions.filter((decision) => decision.seq < (hints[1]?.seq ?? 0));
  expect(decisionsBefore).toHaveLength(1);
}

describeOnLinux('gates and hints in whole attempts', () => {
  test('the oracle passes every gate at its first finish', async () => {
    const { scores, events } = only(await run('oracle', { agent: 'oracle' }));
    expect(scores.scores).toMatchObject({ solved: true, gates_passed: true, gate_rounds: 1, hint_given: true });
    expect(ofType(events, 'gate.result')).toEqual([
      expect.objectContaining({ round: 1, gate: 0, passed: true, failures: 0 }),
    ]);
  });

  test('nop: retries + 1 failed gate rounds (the gate hangs, killed at its timeout by the harness), then its finish is accepted', async () => {
    const { scores, events } = only(await run('nop', { agent: 'nop' }));
    const results = ofType(events, 'gate.result');
    expect(
      results.map((result) => [result.round, result.passed, result.timedOut, result.failures, result.retries]),
    ).toEqual([
      [1, false, true, 1, 1],
      [2, false, true, 2, 1],
    ]);
    const gateKills = ofType(events, 'kill').filter((kill) => kill.commandId >= GATE_COMMAND_BASE);
    expect(gateKills.map((kill) => kill.by)).toEqual(['harness', 'harness']);
    expect(ofType(events, 'action').map((event) => event.action.type)).toEqual(['finish', 'finish']);
    expect(events.at(-1)).toMatchObject({ type: 'attempt.end', outcome: 'completed', clean: true });
    expect(scores.scores).toMatchObject({ gates_passed: false, gate_rounds: 2, solved: false, hint_given: false });
  });

  test('baseline gets the hints at their triggers (and ignores them); --hints off delivers none, as a paired variant', async () => {
    const ran = await run('baseline', { agent: 'baseline', hints: [true, false] });
    const on = ran.attempts.find((attempt) => !attempt.scores.variant.endsWith('hints-off'));
    const off = ran.attempts.find((attempt) => attempt.scores.variant.endsWith('hints-off'));
    if (!on || !off) throw new Error('expected a hints-on and a hints-off variant');
    expectHintsAtTriggers(on.events);
    expect(on.scores.scores).toMatchObject({ interrupted: true, hint_given: true });
    expect(ofType(off.events, 'hint')).toEqual([]);
    expect(off.scores.scores).toMatchObject({ interrupted: true, hint_given: false, hint_to_action: null });
  });

  test('openai: each hint is a user message right after the observation it rode on; the model acts on it and fixes; gates pass', async () => {
    const model = (request: RecordedRequest): ScriptedReply => {
      const { messages } = request.body;
      const made = toolCalls(messages);
      const call = (name: string, args: Record<string, unknown> = {}): ScriptedReply => ({
        toolCalls: [{ name, arguments: args }],
      });
      if (!made.includes('run')) return call('run', { command: 'bash deploy.sh' });
      if (!made.includes('kill'))
        return messages.some((message) => message.role === 'user' && String(message.content).startsWith('H-TICKS'))
          ? call('kill')
          : call('wait');
      if (!made.includes('write')) return call('write', { path: 'deploy.sh', content: FIXED });
      return call('finish', { summary: 'the script no longer asks' });
    };
    const server = await startFakeOpenAI(model);
    try {
      const { scores, events } = only(
        await run('openai', { agent: 'openai', model: 'scripted', baseUrl: server.baseURL, prompt: 'heartbeat' }),
      );
      expectHintsAtTriggers(events);
      const killAction = ofType(events, 'action').find((event) => event.action.type === 'kill');
      const firstHint = ofType(events, 'hint')[0];
      expect(scores.scores).toMatchObject({
        solved: true,
        gates_passed: true,
        gate_rounds: 1,
        hint_given: true,
        hint_to_action: (killAction?.t ?? 0) - (firstHint?.t ?? 0),
      });

      const killRequest = server.requests.find((request) =>
        String(request.body.messages.at(-1)?.content).startsWith('H-TICKS'),
      );
      const tail = killRequest?.body.messages.slice(-2);
      expect(tail?.[0]).toMatchObject({ role: 'tool', content: HEARTBEAT });
      expect(tail?.[1]).toMatchObject({ role: 'user', content: 'H-TICKS: nobody will ever answer that prompt in CI.' });
      const onsetRequest = server.requests.find((request) =>
        request.body.messages.some((message) => String(message.content).startsWith('H-ONSET')),
      );
      expect(onsetRequest?.body.messages.at(-1)).toMatchObject({
        role: 'user',
        content: 'H-ONSET: it is asking something, is it not?',
      });
    } finally {
      await server.close();
    }
  });

  test('exec: each hint is a line of its own just before the observation it rode on, and needs no answer', async () => {
    const script = [
      ['{"type":"run","command":"bash deploy.sh"}'],
      ['{"type":"wait"}'],
      ['{"type":"kill"}'],
      [JSON.stringify({ type: 'write', path: 'deploy.sh', content: FIXED })],
      ['{"type":"finish","summary":"fixed"}'],
    ];
    // The agent's own process is jailed with only the variables named by agentEnv: what it received comes back in its finish.
    process.env.SCRIPT = JSON.stringify(script);
    process.env.SEEN_IN_FINISH = '1';
    try {
      const { scores, events } = only(
        await run('exec', { agent: 'exec', cmd: `node ${LINES_AGENT}`, agentEnv: ['SCRIPT', 'SEEN_IN_FINISH'] }),
      );
      expectHintsAtTriggers(events);
      expect(scores.scores).toMatchObject({ solved: true, gates_passed: true, hint_given: true });
      const finish = ofType(events, 'action').find((event) => event.action.type === 'finish');
      const summary = finish?.action.type === 'finish' ? finish.action.summary : '[]';
      const lines = JSON.parse(summary) as Array<{ type: string; text?: string }>;
      expect(lines.map((line) => line.type)).toEqual(['task', 'hint', 'tick', 'hint', 'tick', 'exit', 'result']);
      expect(lines[3]).toEqual({ type: 'hint', text: 'H-TICKS: nobody will ever answer that prompt in CI.' });
    } finally {
      delete process.env.SCRIPT;
      delete process.env.SEEN_IN_FINISH;
    }
  });

  test('hangbench score re-derives every new score from the traces and shows the gate and hint columns', async () => {
    const ran = await run('score', { agent: ['oracle', 'nop'] });
    const stdout = collector();
    const io = { stdout, stderr: collector(), env: {}, cwd: out, shutdown: new AbortController().signal };
    expect(await main(['score', ran.runDir, '--json'], io)).toBe(0);
    const rescored = JSON.parse(stdout.text) as { attempts: AttemptScores[]; loop: unknown[]; disagreements: string[] };
    expect(rescored.disagreements).toEqual([]);
    const keys = ['gates_passed', 'gate_rounds', 'hint_given', 'hint_to_action'] as const;
    for (const attempt of ran.attempts) {
      const again = rescored.attempts.find((candidate) => candidate.variant === attempt.scores.variant);
      for (const key of keys) expect(again?.scores[key]).toEqual(attempt.scores.scores[key]);
    }
    expect(rescored.loop).toHaveLength(2);
    const table = collector();
    expect(await main(['score', ran.runDir], { ...io, stdout: table })).toBe(0);
    expect(table.text).toMatch(/gates passed \[95% CI\]/);
  });
});

function toolCalls(messages: ChatRequestBody['messages']): string[] {
  return messages
    .flatMap((message) => (message.tool_calls ?? []) as Array<{ function: { name: string } }>)
    .map((call) => call.function.name);
}
