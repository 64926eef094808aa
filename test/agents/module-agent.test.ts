import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { runEval } from '../../src/index.js';
import { readTrace } from '../../src/trace/read.js';

const root = path.resolve(import.meta.dirname, '../..');
const EXAMPLE_CASE = path.join(root, 'templates/init/cases/example-confirm-prompt.yaml');
const out = await mkdtemp(path.join(tmpdir(), 'hangbench-module-agent-'));
afterAll(() => rm(out, { recursive: true, force: true }));

async function evalWith(agent: string, runId: string) {
  const result = await runEval({ caseInputs: [EXAMPLE_CASE], agent, timeScale: 0.1, out, runId, cwd: root });
  expect(result.problems).toEqual([]);
  expect(result.summary.attempts).toHaveLength(1);
  return { result, attempt: result.summary.attempts[0]! };
}

describe('an agent as a module (--agent ./my-agent.mjs)', () => {
  it('a JavaScript module solves the init example case in-process, with the same observations and actions', async () => {
    // the example the package ships (it imports defineAgent from 'hangbench': the package's own name resolves to dist/)
    const { attempt, result } = await evalWith('./examples/module-agent.mjs', 'js');
    expect(attempt.agent).toBe('module');
    expect(attempt.variant).toBe('module-module-agent·interval-10s');
    expect(attempt.outcome).toBe('completed');
    expect(attempt.scores).toMatchObject({
      reproduced: true,
      interrupted: true,
      fixed: true,
      clean: true,
      solved: true,
    });
    const trace = await readTrace(
      path.join(result.runDir, 'example-confirm-prompt', attempt.variant, '1', 'trace.jsonl'),
    );
    expect(
      trace
        .filter((event) => event.type === 'action')
        .map((event) => (event as { action: { type: string } }).action.type),
    ).toEqual(expect.arrayContaining(['run', 'kill', 'edit', 'finish']));
  });

  // Through the built CLI in plain Node: under vitest, Vite would compile the .ts itself and prove nothing.
  it("a TypeScript module solves it too (type stripping, or the project's TypeScript compiler on Node 20)", async () => {
    const cli = await execa(
      'node',
      [
        path.join(root, 'bin/hangbench.js'),
        'eval',
        EXAMPLE_CASE,
        '--agent',
        './test/fixtures/agents/solve-example.ts',
        '--time-scale',
        '0.1',
        '--out',
        out,
        '--run-id',
        'ts',
        '--json',
      ],
      { cwd: root, reject: false, env: { CI: '1' } },
    );
    expect(cli.stderr).not.toContain('internal error');
    expect(cli.exitCode).toBe(0);
    const summary = JSON.parse(cli.stdout) as { attempts: Array<{ variant: string; scores: { solved: boolean } }> };
    expect(summary.attempts.map((attempt) => [attempt.variant, attempt.scores.solved])).toEqual([
      ['module-solve-example·interval-10s', true],
    ]);
  });

  it('a module that throws becomes an error score, and its message is in the trace', async () => {
    const { attempt, result } = await evalWith('./test/fixtures/agents/throws.mjs', 'throws');
    expect(attempt.outcome).toBe('error');
    expect(attempt.scores.solved).toBe(false);
    const trace = await readTrace(
      path.join(result.runDir, 'example-confirm-prompt', attempt.variant, '1', 'trace.jsonl'),
    );
    const error = trace.find((event) => event.type === 'error');
    expect(error).toMatchObject({ where: 'agent' });
    expect(JSON.stringify(error)).toContain('agent bug: cannot read the tick');
    expect(attempt.scores.clean).toBe(true);
  });

  it('a module whose default export is not an agent is an error score that says what to export', async () => {
    const { attempt, result } = await evalWith('./test/fixtures/agents/not-an-agent.mjs', 'not-agent');
    expect(attempt.outcome).toBe('error');
    const trace = await readTrace(
      path.join(result.runDir, 'example-confirm-prompt', attempt.variant, '1', 'trace.jsonl'),
    );
    expect(JSON.stringify(trace.find((event) => event.type === 'error'))).toContain(
      'a function; call it or export the agent it returns',
    );
  });

  it('a path that does not exist is a usage error before anything runs', async () => {
    await expect(
      runEval({ caseInputs: [EXAMPLE_CASE], agent: './no-such-agent.mjs', out, runId: 'missing', cwd: root }),
    ).rejects.toThrow(/no such file/);
  });
});
