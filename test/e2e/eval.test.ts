import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runEval, type RunResult } from '../../src/runner/run-eval.js';
import { readTrace, scoreAttempt } from '../../src/scorers/index.js';
import type { AttemptScores } from '../../src/types/scores.js';
import { attemptMarkerProcesses } from '../support/proc-scan.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const TIME_SCALE = 0.1;

/**
 * What the baseline (kill after 2 consecutive "hung" ticks, never edits) does on each case, pinned.
 * Some hangs and healthy programs look identical from /proc (hang-catalogue.md, "twins"): the chatty
 * retry loop prints a new line every half second, so the monitor calls it progressing and the baseline
 * never interrupts it; the silent optimiser burns CPU with no output for longer than two ticks, so the
 * baseline kills it although it would have finished.
 */
const BASELINE_EXPECTED: Record<string, Partial<AttemptScores['scores']>> = {
  'py-pipe-deadlock': { reproduced: true, interrupted: true },
  'py-lock-order': { reproduced: true, interrupted: true },
  'py-confirm-prompt': { reproduced: true, interrupted: true },
  'node-server-open': { reproduced: true, interrupted: true },
  'bash-orphan-pipe': { reproduced: true, interrupted: true },
  'node-busy-loop': { reproduced: true, interrupted: true },
  'py-asyncio-event': { reproduced: true, interrupted: true },
  'node-retry-forever': { reproduced: true, interrupted: false },
  'ctl-slow-migrations': { false_kill: false, completed: true, solved: true },
  'ctl-quiet-optimizer': { false_kill: true, completed: false, solved: false },
  'ctl-warmup-then-progress': { false_kill: false, completed: true, solved: true },
};

async function evaluate(agent: string): Promise<RunResult> {
  const out = await mkdtemp(path.join(tmpdir(), `hangbench-e2e-${agent}-`));
  return runEval({ agent, timeScale: TIME_SCALE, out, cwd: projectRoot, concurrency: 4, runId: agent });
}

function byCase(result: RunResult): Map<string, AttemptScores> {
  return new Map(result.summary.attempts.map((attempt) => [attempt.caseId, attempt]));
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

  it('oracle solves 100 % of cases', () => {
    const unsolved = runs.oracle!.summary.attempts.filter((attempt) => !attempt.scores.solved);
    expect(unsolved.map((attempt) => [attempt.caseId, attempt.scores, attempt.outcome])).toEqual([]);
  });

  it('nop solves 0 % of hang cases', () => {
    const hangs = runs.nop!.summary.attempts.filter((attempt) => attempt.kind === 'hang');
    expect(hangs.length).toBeGreaterThanOrEqual(8);
    expect(hangs.filter((attempt) => attempt.scores.solved)).toEqual([]);
  });

  it('baseline reproduces every hang case', () => {
    const hangs = runs.baseline!.summary.attempts.filter((attempt) => attempt.kind === 'hang');
    expect(hangs.filter((attempt) => !attempt.scores.reproduced).map((attempt) => attempt.caseId)).toEqual([]);
  });

  it('baseline interrupts and false kills are what the monitor can and cannot tell apart', () => {
    const found = byCase(runs.baseline!);
    for (const [caseId, expected] of Object.entries(BASELINE_EXPECTED)) {
      expect({ caseId, ...found.get(caseId)?.scores }).toMatchObject({ caseId, ...expected });
    }
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
