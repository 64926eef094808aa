import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runEval, type RunResult } from '../../src/run/run-eval.js';
import { readTrace, scoreAttempt } from '../../src/scorers/index.js';
import type { AttemptScores } from '../../src/types/scores.js';
import { attemptMarkerProcesses } from '../support/proc-scan.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const TIME_SCALE = 0.1;

async function evaluate(agent: string): Promise<RunResult> {
  const out = await mkdtemp(path.join(tmpdir(), `hangbench-e2e-${agent}-`));
  return runEval({ agent, timeScale: TIME_SCALE, out, cwd: projectRoot, concurrency: 4, runId: agent });
}

describe(`end to end on every case at --time-scale ${TIME_SCALE}`, () => {
  const runs: Record<string, RunResult> = {};

  beforeAll(async () => {
    for (const agent of ['oracle', 'nop', 'baseline']) runs[agent] = await evaluate(agent);
  }, 600_000);

  it('loads every case without problems', () => {
    expect(runs.oracle?.problems).toEqual([]);
    expect(runs.oracle?.summary.attempts.length).toBeGreaterThanOrEqual(11);
  });

  // Whether the oracle's verify finishes in time and the baseline kills after the onset depends, at this scale, on
  // start-up speed: both are checked at time scale 1 in the slow suite (test/hostile-slow/library.test.ts).
  it('oracle and baseline end every attempt without a harness error', () => {
    for (const agent of ['oracle', 'baseline']) {
      const errors = runs[agent]!.summary.attempts.filter((attempt) => attempt.outcome === 'error');
      expect(errors.map((attempt) => [agent, attempt.caseId])).toEqual([]);
    }
  });

  it('nop solves 0 % of hang cases', () => {
    const hangs = runs.nop!.summary.attempts.filter((attempt) => attempt.kind === 'hang');
    expect(hangs.length).toBeGreaterThanOrEqual(8);
    expect(hangs.filter((attempt) => attempt.scores.solved)).toEqual([]);
  });

  it('every attempt of every agent ends clean, and no process carries a run marker afterwards', async () => {
    for (const run of Object.values(runs)) {
      expect(run.summary.attempts.filter((attempt) => !attempt.scores.clean).map((attempt) => attempt.caseId)).toEqual([]);
    }
    expect(attemptMarkerProcesses('oracle.').concat(attemptMarkerProcesses('nop.'), attemptMarkerProcesses('baseline.'))).toEqual([]);
  });

  it('hangbench score recomputes the same scores from the traces alone', async () => {
    const run = runs.oracle!;
    const traces = (await readdir(run.runDir, { recursive: true })).filter((file) => file.endsWith('trace.jsonl'));
    expect(traces.length).toBe(run.summary.attempts.length);
    for (const trace of traces) {
      const recorded = JSON.parse(await readFile(path.join(run.runDir, path.dirname(trace), 'score.json'), 'utf8')) as AttemptScores;
      expect(scoreAttempt(await readTrace(path.join(run.runDir, trace)))).toEqual(recorded);
    }
  });
});
