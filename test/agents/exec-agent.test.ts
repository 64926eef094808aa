import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execAgent } from '../../src/agents/exec/agent.js';
import { runEval } from '../../src/run/run-eval.js';
import { readTrace } from '../../src/scorers/index.js';
import { HangbenchError } from '../../src/types/errors.js';
import { agentContext, taskObservation, tick } from '../support/agent-fixtures.js';
import { CASE_FILE, REPO } from './scripted-model.js';

const FIXTURE_AGENT = path.join(import.meta.dirname, 'fixtures/lines-agent.mjs');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hangbench-exec-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function scripted(name: string, script: string[][], extraEnv: Record<string, string> = {}) {
  const log = path.join(dir, `${name}.log`);
  const factory = execAgent({
    command: `node ${FIXTURE_AGENT}`,
    cwd: REPO,
    agentEnv: [],
    allowHosts: [],
    unjailedEnv: { ...process.env, SCRIPT: JSON.stringify(script), LOG: log, ...extraEnv },
  });
  return {
    factory,
    received: async () =>
      (await readFile(log, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; message?: string }),
  };
}

function processesNamed(word: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(word);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('--agent exec: JSON lines protocol', () => {
  test('observations go out as lines; actions come back validated; a bad line gets an error observation; usage lines count tokens', async () => {
    const agent = scripted('protocol', [
      [
        '{"type":"run"}',
        'not json',
        '{"type":"usage","promptTokens":300,"completionTokens":7}',
        '{"type":"run","command":"python3 build.py"}',
      ],
      ['', '{"type":"kill","signal":"SIGKILL"}'],
    ]);
    const context = agentContext();
    const session = agent.factory.create(context);

    await expect(session.next(taskObservation())).resolves.toEqual({ type: 'run', command: 'python3 build.py' });
    await expect(session.next(tick(1))).resolves.toEqual({ type: 'kill', signal: 'SIGKILL' });
    await session.close?.();

    const received = await agent.received();
    expect(received.map((line) => line.type)).toEqual(['task', 'error', 'error', 'tick']);
    expect(received[1]?.message).toMatch(
      /^not a valid action: .*command.*; send \{"type": …\} with one of run, wait, poll, kill, input, read, write, edit, finish$/,
    );
    expect(received[2]?.message).toMatch(/^not JSON/);
    expect(context.report.responses).toEqual([
      { turn: 1, usage: { promptTokens: 300, completionTokens: 7, cachedTokens: 0 }, latencyMs: 0 },
    ]);
  });

  test('an agent that exits before finishing is an ERROR that quotes its stderr', async () => {
    const session = scripted('early-exit', [], { EXIT_CODE: '3' }).factory.create(agentContext());
    const error = await session.next(taskObservation()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HangbenchError);
    expect((error as Error).message).toMatch(
      /^exec agent "node .*lines-agent\.mjs" exited \(code 3\) before finishing; its stderr ends: pid \d+$/,
    );
  });

  test('close() stops the agent process when the attempt ends', async () => {
    const pidFile = path.join(dir, 'agent.pid');
    const session = execAgent({
      command: `echo $$ > ${pidFile}; exec node ${path.join(REPO, 'examples/exec-agent.mjs')}`,
      cwd: REPO,
      agentEnv: [],
      allowHosts: [],
      unjailedEnv: process.env,
    }).create(agentContext());
    await expect(session.next(taskObservation())).resolves.toEqual({ type: 'run', command: 'python3 build.py' });
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    await session.close?.();
    expect(alive(pid)).toBe(false);
  });

  test("close() ends within its deadline when a setsid child of the agent holds the agent's stdout, and notes what it gave up on", async () => {
    const pidFile = path.join(dir, 'holder.pid');
    // The holder leaves the agent's process group (setsid) but keeps its stdout and stderr: 'close' never comes by itself.
    const command = `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 300' & exec node ${path.join(REPO, 'examples/exec-agent.mjs')}`;
    const context = agentContext();
    const session = execAgent({ command, cwd: REPO, agentEnv: [], allowHosts: [], unjailedEnv: process.env }).create(
      context,
    );
    await expect(session.next(taskObservation())).resolves.toEqual({ type: 'run', command: 'python3 build.py' });
    await expect.poll(async () => readFile(pidFile, 'utf8').catch(() => '')).toMatch(/^\d+\n$/);
    const holder = Number(await readFile(pidFile, 'utf8'));
    try {
      expect(alive(holder)).toBe(true);
      const started = performance.now();
      await session.close?.();
      // TERM, a 1 s grace, KILL, a 1 s deadline on the pipes: well under the holder's 300 s
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(context.report.notes).toEqual([
        {
          kind: 'agent',
          message: expect.stringMatching(
            /^exec agent stop: gave up after \d+ ms waiting for the exec agent's stdout and stderr to close/,
          ),
        },
      ]);
    } finally {
      process.kill(holder, 'SIGKILL');
    }
  });
});

describe('--agent exec end to end', () => {
  test('examples/exec-agent.mjs reproduces and interrupts py-pipe-deadlock (it never fixes), and is gone afterwards', async () => {
    // The agent runs in a sandbox of its own (its pid file would land there): a marker in its command line finds it.
    const marker = `e2e-marker-${process.pid}`;
    const result = await runEval({
      caseInputs: [CASE_FILE],
      agent: 'exec',
      cmd: `exec node examples/exec-agent.mjs ${marker}`,
      timeScale: 0.1,
      // 500 ms ticks: python is well past its start-up (and the onset) before two quiet ticks have passed.
      intervalMs: 5000,
      concurrency: 1,
      out: dir,
      runId: 'exec',
      cwd: REPO,
    });
    const attempt = result.summary.attempts[0];
    expect(attempt?.outcome).toBe('completed');
    expect(attempt?.scores).toMatchObject({
      reproduced: true,
      interrupted: true,
      fixed: false,
      clean: true,
      solved: false,
    });
    const events = await readTrace(
      path.join(result.runDir, 'py-pipe-deadlock', 'exec·interval-5s', '1', 'trace.jsonl'),
    );
    const decisions = events.filter((event) => event.type === 'decision').map((event) => event.action);
    expect(decisions.at(-1)).toBe('kill');
    expect(processesNamed(marker)).toEqual([]);
  });
});
