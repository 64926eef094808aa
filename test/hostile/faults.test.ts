import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentFactory, AgentSession, Observation } from '../../src/agents/protocol.js';
import { countTokens } from '../../src/agents/tokens.js';
import type { Reporter } from '../../src/report/reporters.js';
import { loadCaseFile } from '../../src/cases/load-cases.js';
import { resolveOptions } from '../../src/run/options.js';
import { runAttempt, type Attempt } from '../../src/attempt/run-attempt.js';
import { runEval } from '../../src/run/run-eval.js';
import { probeHost, type HostCapabilities } from '../../src/sandbox/index.js';
import { readTrace } from '../../src/scorers/index.js';
import type { Action } from '../../src/types/actions.js';
import type { Case } from '../../src/types/case.js';
import type { EventOf } from '../../src/types/events.js';
import { attemptMarkerProcesses } from '../support/proc-scan.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(projectRoot, 'test/fixtures/hostile');
let capabilities: HostCapabilities;
let runs = 0;

beforeAll(async () => {
  capabilities = await probeHost();
});

async function loadCase(file: string): Promise<Case> {
  const loaded = await loadCaseFile(path.join(fixtures, file));
  if ('problems' in loaded) throw new Error(JSON.stringify(loaded.problems));
  return loaded;
}

/** An agent from a script of steps; each step sees the observation and returns the next action (or throws). */
function scripted(steps: Array<(observation: Observation) => Action | Promise<Action>>): AgentFactory {
  return {
    name: 'scripted',
    create: (): AgentSession => {
      let index = 0;
      return {
        next: async (observation) =>
          (steps[index++] ?? (() => ({ type: 'finish', summary: 'end of script' })))(observation),
      };
    },
  };
}

async function attemptWith(agent: AgentFactory, caseFile: string) {
  const runDir = await mkdtemp(path.join(tmpdir(), 'hangbench-faults-'));
  const runId = `faults${process.pid}n${++runs}`;
  const options = resolveOptions({ runId, timeScale: 0.1, intervalMs: 2_000, cwd: projectRoot });
  const testCase = await loadCase(caseFile);
  const attempt: Attempt = {
    testCase,
    variant: { name: 'scripted', agent: { agent: 'nop' }, monitor: { mode: 'interval', everyMs: 2_000 } },
    repeat: 1,
  };
  const scores = await runAttempt(attempt, {
    options,
    runDir,
    capabilities,
    agent,
    shutdown: new AbortController().signal,
  });
  const events = await readTrace(path.join(runDir, testCase.id, 'scripted', '1', 'trace.jsonl'));
  const of = <K extends EventOf<'error'>['type'] | 'verify' | 'kill' | 'attempt.end' | 'action.result'>(type: K) =>
    events.filter((event) => event.type === type) as Array<EventOf<K>>;
  return { scores, events, of, leftovers: attemptMarkerProcesses(`${runId}.`) };
}

describe('a crash inside one agent is an ERROR of that attempt, not of the run', () => {
  it('an agent whose next() throws: outcome error, the message in the trace, nothing left running', async () => {
    const { scores, of, leftovers } = await attemptWith(
      scripted([
        () => ({ type: 'run', command: 'python3 run.py', background: true }),
        () => {
          throw new TypeError('agent bug: cannot read properties of undefined');
        },
      ]),
      'cases/canary.yaml',
    );
    expect(scores?.outcome).toBe('error');
    expect(of('error')[0]).toMatchObject({
      where: 'agent',
      message: expect.stringContaining('agent bug: cannot read properties of undefined'),
    });
    expect(of('kill')[0]).toMatchObject({ by: 'harness', survivors: [] });
    expect(of('attempt.end')[0]).toMatchObject({ outcome: 'error', clean: true });
    expect(leftovers).toEqual([]);
  });

  it('an agent whose create() throws, and one that rejects with a non-Error, are errors too', async () => {
    const broken: AgentFactory = {
      name: 'broken',
      create: () => {
        throw new Error('cannot start');
      },
    };
    expect((await attemptWith(broken, 'cases/canary.yaml')).scores?.outcome).toBe('error');
    const rejecting = scripted([() => Promise.reject('a string, not an Error')]);
    const { scores, of } = await attemptWith(rejecting, 'cases/canary.yaml');
    expect(scores?.outcome).toBe('error');
    expect(of('error')[0]?.message).toContain('a string, not an Error');
  });
});

describe('hidden verify files', () => {
  it('are not in the workspace while the agent works, not readable through ../, and are there for verify', async () => {
    const seen: string[] = [];
    const { scores, of } = await attemptWith(
      scripted([
        () => ({ type: 'run', command: 'find . -type f | sort; ls ..' }),
        (observation) => {
          if (observation.type === 'exit') seen.push(observation.output);
          return { type: 'read', path: '../hidden/verify-only-check.sh' };
        },
        (observation) => {
          if (observation.type === 'result') seen.push(observation.message);
          return { type: 'read', path: 'verify-only-check.sh' };
        },
        (observation) => {
          if (observation.type === 'result') seen.push(observation.message);
          return { type: 'finish', summary: 'looked around' };
        },
      ]),
      'special/hidden-files.yaml',
    );
    expect(seen[0]).toBe('./app.sh\nhome\ntmp\nworkspace\n');
    expect(seen[1]).toMatch(/leaves the workspace/);
    expect(seen[2]).toMatch(/no such file/);
    expect(of('verify')[0]).toMatchObject({ passed: true, outputTail: expect.stringContaining('hidden check ran') });
    expect(scores?.scores.fixed).toBe(true);
  });
});

describe('a reporter that throws', () => {
  it('is recorded in errors.log and the run goes on with every attempt scored', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-reporter-'));
    const thrower: Required<Reporter> = {
      name: 'thrower',
      onRunStart: () => {
        throw new Error('onRunStart broke');
      },
      onAttemptStart: () => {
        throw new Error('onAttemptStart broke');
      },
      onTick: () => Promise.reject(new Error('onTick broke')),
      onAttemptEnd: async () => {
        throw new Error('onAttemptEnd broke');
      },
      onRunEnd: () => {
        throw new Error('onRunEnd broke');
      },
    };
    const result = await runEval(
      {
        caseInputs: [path.join(fixtures, 'cases/canary.yaml')],
        agent: 'baseline',
        timeScale: 0.1,
        intervalMs: 10_000,
        out,
        runId: 'reporter',
        cwd: projectRoot,
      },
      { reporters: [thrower] },
    );
    expect(
      result.summary.attempts.map((attempt) => [attempt.caseId, attempt.outcome, attempt.scores.completed]),
    ).toEqual([['canary', 'completed', true]]);
    const log = await readFile(path.join(result.runDir, 'errors.log'), 'utf8');
    for (const hook of ['onRunStart', 'onAttemptStart', 'onTick', 'onAttemptEnd', 'onRunEnd'])
      expect(log).toContain(`reporter thrower failed in ${hook}: Error: ${hook} broke`);
  });
});

describe('token counting of pathological tick text', () => {
  it('is exact for ordinary text and counts long runs in pieces', () => {
    const ordinary =
      'pid 4242 python3 app.py — S in futex_wait_queue, no output for 12.0s\nBuilding wheel for numpy (pyproject.toml) ... ';
    expect(countTokens(ordinary)).toBe(new Tiktoken(o200k).encode(ordinary).length);
    // 64-character pieces: a separator line of 6400 dashes is 100 pieces of the same few tokens.
    expect(countTokens('-'.repeat(6_400))).toBe(100 * countTokens('-'.repeat(64)));
    expect(countTokens(`a${' '.repeat(1_000)}b`)).toBeGreaterThan(2);
  });
});
