import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../src/cli/flags/budget.js';
import { HangbenchError } from '../../src/types/errors.js';
import { evalRun, hangbench, root } from './run-helpers.js';

function refusal(value: string): string {
  try {
    parseBudget(value);
  } catch (error) {
    expect(error).toBeInstanceOf(HangbenchError);
    expect((error as HangbenchError).code).toBe('USAGE');
    return (error as Error).message;
  }
  throw new Error(`--budget ${value} was accepted`);
}

describe('eval --budget KEY=VALUE,…', () => {
  it('reads any subset of wall, tokens and interrupt, durations as in case files', () => {
    expect(parseBudget('wall=6m,tokens=60000,interrupt=30s')).toEqual({
      wallMs: 360_000,
      tokens: 60_000,
      interruptMs: 30_000,
    });
    expect(parseBudget('interrupt=500ms')).toEqual({ interruptMs: 500 });
    expect(parseBudget('tokens=1, wall=90')).toEqual({ tokens: 1, wallMs: 90_000 });
  });

  it('refuses a bad key or value naming the flag, what was given and what is accepted', () => {
    expect(refusal('wal=6m')).toBe('--budget: unknown key "wal" in "wal=6m"; the keys are tokens, wall, interrupt');
    expect(refusal('wall=soon')).toBe('--budget: wall=soon: wall takes a duration > 0 (250ms, 30s, 6m, 1h)');
    expect(refusal('wall=0s')).toContain('wall takes a duration > 0');
    expect(refusal('tokens=1.5')).toBe('--budget: tokens=1.5: tokens takes a whole number of tokens ≥ 1');
    expect(refusal('tokens=0')).toContain('tokens takes a whole number of tokens ≥ 1');
    expect(refusal('6m')).toBe(
      '--budget: "6m" in "6m" is not KEY=VALUE; write e.g. wall=6m,tokens=60000,interrupt=30s (keys: tokens, wall, interrupt)',
    );
    expect(refusal('wall=6m,')).toContain('"" in "wall=6m," is not KEY=VALUE');
    expect(refusal('wall=6m,wall=5m')).toBe('--budget: wall is given twice in "wall=6m,wall=5m"');
  });

  it("sets every variant's budgets: attempt.start.budgets carries them (scaled), not the case's own", async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-budget-'));
    const testCase = path.join(root, 'cases', 'node-busy-loop.yaml');
    // the case's own: wall 90s, interrupt 45s, tokens 60000; at --time-scale 0.1
    const runDir = await evalRun(out, 'b1', ['--budget', 'wall=2m,interrupt=20s,tokens=5000'], [testCase]);
    const trace = await readFile(
      path.join(runDir, 'node-busy-loop', 'oracle·interval-10s', '1', 'trace.jsonl'),
      'utf8',
    );
    const start = trace
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; budgets?: Record<string, unknown> })
      .find((event) => event.type === 'attempt.start');
    expect(start?.budgets).toMatchObject({ wallMs: 12_000, interruptMs: 2_000, tokens: 5_000, wallFrom: 'variant' });

    const bad = await hangbench(['eval', testCase, '--budget', 'wall=6m,memory=1G', '--out', out]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('hangbench eval: --budget: unknown key "memory" in "wall=6m,memory=1G"');
    const resumed = await hangbench(['eval', '--resume', runDir, '--budget', 'wall=3m']);
    expect(resumed.exitCode).toBe(2);
    expect(resumed.stderr).toContain('leave out --budget (');
  });
});
