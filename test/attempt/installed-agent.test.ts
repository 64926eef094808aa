import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runEval } from '../../src/run/run-eval.js';
import { readTrace } from '../../src/scorers/index.js';
import { probeHost } from '../../src/sandbox/index.js';
import type { EventOf, TraceEvent } from '../../src/types/events.js';
import type { AttemptScores } from '../../src/types/scores.js';
import { DEFAULTS } from '../../src/defaults.js';
import { requireCapability } from '../support/capability.js';
import { startScriptedModel, type ScriptedModel } from '../support/scripted-model-server.js';

/** The installed path never hangs and never lies: `cli:generic` with scripted commands, in the real bubblewrap jail. */

const REPO = path.resolve(import.meta.dirname, '../..');
const SLEEP = path.join(REPO, 'test/fixtures/installed/sleep-forever.yaml');
const DEPLOY = path.join(REPO, 'test/fixtures/installed/deploy-workers.yaml');
const PIPE = path.join(REPO, 'cases/py-pipe-deadlock.yaml');
const capabilities = await probeHost();
const { afterFirstMs, afterTermMs, afterKillMs } = DEFAULTS.killGraces;
/** A budget stop ends the attempt within the kill graces: the commands' kill, then the CLI's, plus the shim's report. */
const KILL_GRACES_MS = 2 * (afterFirstMs + afterTermMs + afterKillMs) + 1_000;

// A chat-API CLI in one line: asks the model (chat completions) which command to run, then runs it with bash -c.
const CHAT_AGENT = [
  "const { execFileSync } = require('node:child_process');",
  "fetch(process.env.HANGBENCH_BASE_URL + '/chat/completions', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.HANGBENCH_PROXY_AUTH, 'content-type': 'application/json' },",
  "  body: JSON.stringify({ model: process.env.HANGBENCH_MODEL, messages: [{ role: 'user', content: 'run the repro' }] }) })",
  "  .then((response) => response.json()).then((answer) => execFileSync('/bin/bash', ['-c', answer.choices[0].message.content], { stdio: 'inherit' }));",
]
  .join(' ')
  .replaceAll("'", '"');

// A CLI that gives its final answer and then never exits (anomalyco/opencode#44901): asks the model with a tool
// offered, prints the text it gets back, and keeps its event loop alive.
const STAYING_AGENT = [
  "fetch(process.env.HANGBENCH_BASE_URL + '/chat/completions', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.HANGBENCH_PROXY_AUTH, 'content-type': 'application/json' },",
  "  body: JSON.stringify({ model: process.env.HANGBENCH_MODEL, messages: [{ role: 'user', content: 'fix it' }], tools: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object', properties: {} } } }] }) })",
  '  .then((response) => response.json()).then((answer) => { console.log(answer.choices[0].message.content); setInterval(() => {}, 1e9); });',
]
  .join(' ')
  .replaceAll("'", '"');

let out: string;
beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'hangbench-installed-'));
});
afterAll(async () => {
  if (!process.env.HB_KEEP) await rm(out, { recursive: true, force: true });
});

const ofType = <K extends TraceEvent['type']>(events: readonly TraceEvent[], type: K): EventOf<K>[] =>
  events.filter((event): event is EventOf<K> => event.type === type);

type Ran = { scores: AttemptScores; events: TraceEvent[] };

async function generic(
  runId: string,
  caseFile: string,
  cmd: string,
  extra: { wallMs?: number; model?: ScriptedModel } = {},
): Promise<Ran> {
  const result = await runEval({
    caseInputs: [caseFile],
    agent: 'cli:generic',
    cmd,
    model: 'scripted',
    ...(extra.model ? { baseUrl: extra.model.url } : {}),
    mode: 'none',
    intervalMs: 500,
    timeScale: 1,
    verifyFloorMs: 2000,
    concurrency: 1,
    out,
    runId,
    cwd: REPO,
    ...(extra.wallMs ? { budgets: { wallMs: extra.wallMs } } : {}),
  });
  const scores = result.summary.attempts[0]!;
  return {
    scores,
    events: await readTrace(
      path.join(result.runDir, scores.caseId, scores.variant, String(scores.repeat), 'trace.jsonl'),
    ),
  };
}

describe('the installed path', () => {
  test("a wall budget stop while a chat-API CLI's command hangs ends the attempt within the kill graces", async (ctx) => {
    requireCapability(ctx, 'bubblewrap', capabilities.isolation === 'bubblewrap');
    const model = await startScriptedModel([() => ({ text: 'bash serve.sh' })]);
    try {
      const { scores, events } = await generic('budget-chat', SLEEP, `node -e '${CHAT_AGENT}'`, {
        wallMs: 15_000,
        model,
      });
      const limit = ofType(events, 'limit')[0];
      expect(limit).toMatchObject({ kind: 'wall' });
      const repro = ofType(events, 'command.start').find((start) => start.command === 'bash serve.sh');
      expect(ofType(events, 'kill').find((kill) => kill.commandId === repro?.commandId)).toMatchObject({
        by: 'budget',
      });
      expect(ofType(events, 'command.exit').find((exit) => exit.commandId === repro?.commandId)).toMatchObject({
        killed: true,
      });
      const end = ofType(events, 'attempt.end')[0]!;
      expect(end.outcome).toBe('limit');
      expect(end.t - limit!.t).toBeLessThan(KILL_GRACES_MS);
      expect(ofType(events, 'wait.expired')).toEqual([]);
      expect(scores.scores.clean).toBe(true);
    } finally {
      await model.close();
    }
  }, 60_000);

  test('a CLI has finished when its process exits: the workers left holding its output are recorded and ended', async (ctx) => {
    requireCapability(ctx, 'bubblewrap', capabilities.isolation === 'bubblewrap');
    const { scores, events } = await generic(
      'exit-not-eof',
      DEPLOY,
      'bash -c "timeout -s INT 4 ./deploy.sh; echo agent-done"',
    );
    const end = ofType(events, 'attempt.end')[0]!;
    expect(end.outcome).toBe('completed');
    expect(ofType(events, 'limit')).toEqual([]);
    // 4 s of deploy.sh, then the CLI's exit: nowhere near the 60 s wall budget.
    expect(end.agentWallMs).toBeLessThan(20_000);
    const notes = ofType(events, 'agent.note').map((note) => note.message);
    expect(notes).toContain('generic exited with code 0');
    expect(
      notes.find((note) =>
        /left [1-9]\d* process\(es\) running, holding its output; ended with the attempt \(none survived\)/.test(note),
      ),
    ).toBeDefined();
    // The repro's two workers were alive when the CLI exited, and nothing of the attempt outlived it.
    const atExit = ofType(events, 'command.tree').find((tree) => tree.at === 'agent.exit');
    expect(atExit?.alive.filter((process) => process.command.startsWith('sleep 100000'))).toHaveLength(2);
    expect(scores.scores.clean).toBe(true);
    expect(ofType(events, 'agent.exit')).toMatchObject([{ ended: false, exitCode: 0, afterFinalMs: null }]);
    expect(scores.scores).toMatchObject({ agent_exit: 'exited', agent_exit_ms: null });
  }, 60_000);

  test('a CLI that does not exit after its final answer is ended after the grace and scored so', async (ctx) => {
    requireCapability(ctx, 'bubblewrap', capabilities.isolation === 'bubblewrap');
    const model = await startScriptedModel([() => ({ text: 'I fixed it.' })]);
    try {
      const { scores, events } = await generic('no-exit', SLEEP, `node -e '${STAYING_AGENT}'`, { model });
      const answer = ofType(events, 'model.response')[0];
      expect(answer).toMatchObject({ status: 200, final: true });
      const exit = ofType(events, 'agent.exit')[0];
      expect(exit).toMatchObject({ ended: true, exitCode: null, graceMs: DEFAULTS.agentExitGraceMs });
      expect(exit!.afterFinalMs).toBeGreaterThanOrEqual(DEFAULTS.agentExitGraceMs);
      // Ended by the grace, not by the case's 60 s wall budget: the agent finished, the harness ended what it left.
      expect(ofType(events, 'limit')).toEqual([]);
      expect(ofType(events, 'attempt.end')[0]!.outcome).toBe('completed');
      expect(scores.scores).toMatchObject({ agent_exit: 'ended', clean: true });
      expect(scores.scores.agent_exit_ms).toBe(exit!.afterFinalMs);
      // node's start-up before its first request is the boot, on the wall and on a core
      const boot = ofType(events, 'agent.boot');
      expect(boot).toHaveLength(1);
      expect(boot[0]!.cpuMs).toBeGreaterThan(0);
      expect(boot[0]!.t).toBeGreaterThanOrEqual(ofType(events, 'model.request')[0]!.t);
      expect(ofType(events, 'attempt.end')[0]!.cpuMs).toBeGreaterThanOrEqual(boot[0]!.cpuMs);
      expect(scores.cpuMs).toBeGreaterThanOrEqual(boot[0]!.cpuMs);
      expect(scores.scores).toMatchObject({ agent_boot_ms: boot[0]!.wallMs, agent_boot_cpu_ms: boot[0]!.cpuMs });
    } finally {
      await model.close();
    }
  }, 90_000);

  test('observed ticks carry the culprit, so diagnosed is scored for installed agents', async (ctx) => {
    requireCapability(ctx, 'bubblewrap', capabilities.isolation === 'bubblewrap');
    const { scores, events } = await generic(
      'diagnosed',
      PIPE,
      'bash -c "timeout -s INT 20 python3 build.py; echo agent-done"',
    );
    const hung = ofType(events, 'tick').find((tick) => tick.classification === 'blocked-on-pipe');
    expect(hung?.culprit).toEqual(expect.any(Number));
    expect(scores.scores.diagnosed).toBe(true);
  }, 90_000);
});
