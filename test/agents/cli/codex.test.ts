import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULTS } from '../../../src/defaults.js';
import { runEval } from '../../../src/run/run-eval.js';
import { readTrace } from '../../../src/scorers/index.js';
import { probeHost } from '../../../src/sandbox/index.js';
import type { EventOf, TraceEvent } from '../../../src/types/events.js';
import type { AttemptScores } from '../../../src/types/scores.js';
import { requireCapability } from '../../support/capability.js';
import { installedCli } from '../../support/installed-cli.js';
import { lastToolOutput, startScriptedModel, type ModelStep } from '../../support/scripted-model-server.js';

/** The real Codex CLI in the attempt's sandbox, driven by a scripted model through its own tools (exec_command, write_stdin). */

const REPO = path.resolve(import.meta.dirname, '../../..');
const HANG = path.join(REPO, 'test/fixtures/installed/sleep-forever.yaml');
const CONTROL = path.join(REPO, 'test/fixtures/installed/slow-ok.yaml');
const REAL_KEY = 'sk-real-key-the-agent-must-never-see';
const capabilities = await probeHost();
const codex = await installedCli('codex');
const { afterFirstMs, afterTermMs, afterKillMs } = DEFAULTS.killGraces;

let out: string;
const saved = { key: process.env.OPENAI_API_KEY };
beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'hangbench-codex-'));
  process.env.OPENAI_API_KEY = REAL_KEY;
});
afterAll(async () => {
  if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved.key;
  if (!process.env.HB_KEEP) await rm(out, { recursive: true, force: true });
});

interface Ran {
  readonly scores: AttemptScores;
  readonly events: TraceEvent[];
  readonly dir: string;
}

type RanWithModel = Ran & { model: Awaited<ReturnType<typeof startScriptedModel>> };

async function run(
  runId: string,
  caseFile: string,
  steps: readonly ModelStep[],
  extra: { mode?: string; tokens?: number; wallMs?: number } = {},
): Promise<RanWithModel> {
  const model = await startScriptedModel(steps);
  try {
    const result = await runEval({
      caseInputs: [caseFile],
      agent: 'cli:codex',
      model: 'scripted',
      baseUrl: model.url,
      mode: extra.mode ?? 'none',
      intervalMs: 500,
      timeScale: 1,
      verifyFloorMs: 2000,
      concurrency: 1,
      out,
      runId,
      cwd: REPO,
      ...(extra.tokens || extra.wallMs
        ? {
            budgets: {
              ...(extra.tokens ? { tokens: extra.tokens } : {}),
              ...(extra.wallMs ? { wallMs: extra.wallMs } : {}),
            },
          }
        : {}),
    });
    const scores = result.summary.attempts[0]!;
    const dir = path.join(result.runDir, scores.caseId, scores.variant, String(scores.repeat));
    return { scores, events: await readTrace(path.join(dir, 'trace.jsonl')), dir, model };
  } finally {
    await model.close();
  }
}

const ofType = <K extends TraceEvent['type']>(events: readonly TraceEvent[], type: K): EventOf<K>[] =>
  events.filter((event): event is EventOf<K> => event.type === type);
const sessionOf = (text: string): number => Number(/session ID (\d+)/.exec(text)?.[1] ?? NaN);

describe('codex in the sandbox', () => {
  beforeEach((ctx) => {
    requireCapability(
      ctx,
      'bubblewrap',
      capabilities.isolation === 'bubblewrap',
      'installed agents run in the bubblewrap jail',
    );
    requireCapability(ctx, 'installed agent CLI', codex.present, `${codex.spec} at ${codex.bin}`);
  });

  test('a token budget stop while codex holds its hung command ends the attempt within the kill graces', async () => {
    // the first call spends the budget; codex yields with the repro still running, and its next call is refused
    const ran = await run(
      'budget-stop',
      HANG,
      [
        () => ({ call: 'exec_command', args: { cmd: 'bash serve.sh', yield_time_ms: 2500 } }),
        () => ({ text: 'never reached' }),
      ],
      { tokens: 1000 },
    );
    const limit = ofType(ran.events, 'limit')[0];
    expect(limit).toMatchObject({ kind: 'tokens' });
    const repro = ofType(ran.events, 'command.start').find((start) => start.command === 'bash serve.sh');
    expect(ofType(ran.events, 'kill').find((kill) => kill.commandId === repro?.commandId)).toMatchObject({
      by: 'budget',
    });
    const end = ofType(ran.events, 'attempt.end')[0]!;
    expect(end.outcome).toBe('limit');
    expect(end.t - limit!.t).toBeLessThan(2 * (afterFirstMs + afterTermMs + afterKillMs) + 1_000);
    expect(ofType(ran.events, 'wait.expired')).toEqual([]);
    expect(ran.scores.scores.clean).toBe(true);
  }, 150_000);

  test('hang: codex runs the repro, the shim sees it, onset and ticks are recorded, codex ends it, and its fix is verified', async () => {
    const ran = await run('hang', HANG, [
      () => ({ call: 'exec_command', args: { cmd: 'bash serve.sh', yield_time_ms: 2500 } }),
      () => ({
        call: 'exec_command',
        args: { cmd: "printf 'go\\n' > mode.txt && bash serve.sh", yield_time_ms: 5000 },
      }),
      () => ({ text: 'serve.sh no longer waits for a server.' }),
    ]);
    const { events, scores } = ran;
    const starts = ofType(events, 'command.start');
    expect(starts.map((start) => start.command)).toEqual([
      'bash serve.sh',
      "printf 'go\\n' > mode.txt && bash serve.sh",
    ]);
    const onset = ofType(events, 'onset')[0];
    expect(onset?.commandId).toBe(starts[0]!.commandId);
    const ticks = ofType(events, 'tick').filter((tick) => tick.commandId === starts[0]!.commandId);
    expect(ticks.length).toBeGreaterThan(0);
    expect(ticks.every((tick) => tick.delivered === false)).toBe(true);
    expect(ticks.map((tick) => tick.classification)).toContain('sleeping');
    // codex leaves the command running at its yield; it ends it when it exits, a signal the harness did not send.
    const kill = ofType(events, 'kill').find((one) => one.commandId === starts[0]!.commandId);
    expect(kill?.by).toBe('agent');
    expect(ofType(events, 'command.exit').find((exit) => exit.commandId === starts[1]!.commandId)?.exitCode).toBe(0);
    expect(scores.scores.reproduced).toBe(true);
    expect(scores.scores.interrupted).toBe(true);
    expect(ofType(events, 'error')).toEqual([]);
    expect(ofType(events, 'verify')[0]).toMatchObject({ passed: true });
    expect(scores.scores.fixed).toBe(true);
    expect(scores.scores.clean).toBe(true);
    // Tokens are the proxy's: one model.response per call, usage from the endpoint.
    const responses = ofType(events, 'model.response');
    expect(responses).toHaveLength(ran.model.calls.length);
    expect(responses.every((response) => response.tokensFrom === 'usage' && response.usage.promptTokens === 1000)).toBe(
      true,
    );
    expect(ofType(events, 'attempt.end')[0]?.tokens).toBe(1020 * ran.model.calls.length);
    // The agent held the proxy's key, never the real one, and called nothing but the proxy.
    expect(ran.model.calls.every((call) => call.authorization === `Bearer ${REAL_KEY}`)).toBe(true);
    const requests = await Promise.all(
      ofType(events, 'model.request').map((request) => readFile(path.join(ran.dir, request.bodyFile), 'utf8')),
    );
    expect(requests.join('\n')).not.toContain(REAL_KEY);
  });

  test('the agent process sees neither the real key nor any address but the proxy', async () => {
    const probe =
      'env; cat $HOME/.codex/config.toml; (exec 3<>/dev/tcp/1.1.1.1/80 && echo OUTSIDE-REACHED) 2>&1 | tail -1';
    const ran = await run('probe', CONTROL, [
      () => ({ call: 'exec_command', args: { cmd: probe, yield_time_ms: 5000 } }),
      () => ({ text: 'looked around.' }),
    ]);
    const seen = lastToolOutput(ran.model.calls[1]);
    expect(seen).toContain('HANGBENCH_PROXY_AUTH=hangbench-proxy-');
    expect(seen).not.toContain(REAL_KEY);
    expect(seen).not.toContain(new URL(ran.model.url).port);
    expect(seen).toMatch(/base_url = "http:\/\/127\.0\.0\.1:48417\/v1"/);
    expect(seen).not.toContain('OUTSIDE-REACHED');
    expect(seen).toMatch(/Network is unreachable|Connection refused|No such/);
  });

  test('control: codex lets the slow program finish; completed, no false kill', async () => {
    const ran = await run('control', CONTROL, [
      () => ({ call: 'exec_command', args: { cmd: 'bash slow.sh', yield_time_ms: 10000 } }),
      () => ({ text: 'it completes.' }),
    ]);
    expect(lastToolOutput(ran.model.calls[1])).toContain('all steps done');
    expect(ran.scores.scores.completed).toBe(true);
    expect(ran.scores.scores.false_kill).toBe(false);
    expect(ran.scores.scores.clean).toBe(true);
  });

  test('inband: the tick written into the command output reaches the model word for word', async () => {
    const ran = await run(
      'inband',
      HANG,
      [
        () => ({ call: 'exec_command', args: { cmd: 'bash serve.sh', yield_time_ms: 2000 } }),
        (calls) => ({
          call: 'write_stdin',
          args: { session_id: sessionOf(lastToolOutput(calls.at(-1))), chars: '', yield_time_ms: 1500 },
        }),
        () => ({ text: 'it waits for a server.' }),
      ],
      { mode: 'inband' },
    );
    const delivered = ofType(ran.events, 'tick').filter((tick) => tick.delivered === true);
    expect(delivered.length).toBeGreaterThan(0);
    const bodies = await Promise.all(
      ofType(ran.events, 'model.request').map((request) => readFile(path.join(ran.dir, request.bodyFile), 'utf8')),
    );
    const seenByModel = bodies.map((body) => JSON.stringify(JSON.parse(body))).join('\n');
    const text = delivered[0]!.rendered.trim();
    expect(seenByModel).toContain(JSON.stringify(text).slice(1, -1));
  });

  test('nothing codex leaves running survives the attempt, setsid or not', async () => {
    const marker = `sleep ${10_000 + Math.floor(Math.random() * 50_000)}`;
    const ran = await run('leftovers', CONTROL, [
      () => ({
        call: 'exec_command',
        args: { cmd: `setsid ${marker} > /dev/null 2>&1 < /dev/null & ${marker} & echo started`, yield_time_ms: 1000 },
      }),
      () => ({ text: 'left two sleeps behind.' }),
    ]);
    expect(lastToolOutput(ran.model.calls[1])).toContain('started');
    expect(ran.scores.scores.clean).toBe(true);
    const alive = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
    const cmdlines = await Promise.all(alive.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
    expect(cmdlines.filter((cmdline) => cmdline.replaceAll('\0', ' ').trim() === marker)).toEqual([]);
  });

  test('the token budget: past it the proxy answers with an error codex sees, and the attempt records a limit', async () => {
    const ran = await run(
      'budget',
      HANG,
      [
        () => ({ call: 'exec_command', args: { cmd: 'echo one', yield_time_ms: 1000 } }),
        () => ({ call: 'exec_command', args: { cmd: 'echo two', yield_time_ms: 1000 } }),
        () => ({ text: 'never reached' }),
      ],
      { tokens: 1500 },
    );
    const refused = ofType(ran.events, 'model.response').filter((response) => response.refused !== undefined);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.status).toBe(400);
    expect(ofType(ran.events, 'limit')[0]).toMatchObject({ kind: 'tokens', limit: 1500 });
    expect(ran.model.calls.length).toBe(2);
    expect(ran.scores.scores.within_budget).toBe(false);
    expect(ran.scores.scores.clean).toBe(true);
  });
});

test('the test fixtures exist', async () => {
  expect(await readdir(path.join(REPO, 'test/fixtures/installed'))).toEqual(
    expect.arrayContaining(['sleep-forever.yaml', 'slow-ok.yaml']),
  );
});
