import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../src/index.js';
import { runEval, type RunResult } from '../../src/run/run-eval.js';
import { readTrace, scoreAttempt } from '../../src/scorers/index.js';
import type { Case } from '../../src/types/case.js';
import type { AttemptScores } from '../../src/types/scores.js';
import { attemptMarkerProcesses } from './proc-scan.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const TIME_SCALE = 0.1;
const AGENTS = ['oracle', 'nop', 'baseline'] as const;

export interface EndToEnd {
  /** what the describe block says it runs ("a spread of the library", "every case"). */
  readonly what: string;
  /** the cases of the library to run, from all of them in file order. */
  readonly select: (cases: readonly Case[]) => Case[];
  /** the fewest cases `select` must give. */
  readonly atLeast: number;
  /** the beforeAll's timeout: three runs of the selection. */
  readonly timeoutMs: number;
}

/**
 * The library end to end: the oracle, nop and the baseline over the selected cases at --time-scale 0.1, each run then
 * checked for harness errors, nop's solved hangs, leftovers and scores that the traces alone give again. `npm test` runs
 * it on a spread (test/e2e/eval.test.ts), the slow suite on every case (test/hostile-slow/eval-library.test.ts).
 */
export function describeEndToEnd(options: EndToEnd): void {
  describe(`end to end on ${options.what} at --time-scale ${TIME_SCALE}`, () => {
    const runs: Record<string, RunResult> = {};
    let library: Awaited<ReturnType<typeof loadCases>>;
    let chosen: Case[] = [];

    beforeAll(async () => {
      library = await loadCases([], projectRoot);
      chosen = options.select(library.cases);
      const caseInputs = chosen.map((testCase) => testCase.file);
      for (const agent of AGENTS) {
        const out = await mkdtemp(path.join(tmpdir(), `hangbench-e2e-${agent}-`));
        runs[agent] = await runEval({
          agent,
          timeScale: TIME_SCALE,
          out,
          cwd: projectRoot,
          caseInputs,
          // the default concurrency: admission, not the test, keeps the load from deciding a score
          runId: `${agent}-${process.pid}`,
        });
      }
    }, options.timeoutMs);

    it('loads every case of the library without problems, and runs hangs and controls of it', () => {
      expect(library.problems).toEqual([]);
      expect(library.cases.length).toBeGreaterThanOrEqual(52);
      expect(chosen.length).toBeGreaterThanOrEqual(options.atLeast);
      expect(new Set(chosen.map((testCase) => testCase.kind))).toEqual(new Set(['hang', 'control']));
      expect(runs.oracle?.problems).toEqual([]);
      expect(runs.oracle?.summary.attempts.length).toBe(chosen.length);
    });

    it('the oracle solves every case: in the whole run, or alone where the load of the run and of the test files beside it made it miss (said which)', async () => {
      const run = runs.oracle!;
      const unsolved = run.summary.attempts.filter((attempt) => !attempt.scores.solved);
      if (unsolved.length === 0) return;
      // At 0.1 a verify timeout or a budget is a tenth of its length: beside the other test files on 2 cores one can
      // run out for want of CPU. Each miss must solve when run again alone, or the case (or the oracle) is broken.
      const why = await Promise.all(
        unsolved.map(async (attempt) => {
          const events = await readTrace(
            path.join(run.runDir, attempt.caseId, attempt.variant, String(attempt.repeat), 'trace.jsonl'),
          );
          const failed = events.flatMap((event) =>
            event.type === 'verify' && !event.passed ? [`${event.command}: ${event.reason}`] : [],
          );
          return [attempt.caseId, attempt.outcome, ...failed];
        }),
      );
      console.log(
        `oracle: ${unsolved.length} case(s) unsolved in the whole run, run again alone:\n${why.map((line) => `  ${line.join(' · ')}`).join('\n')}`,
      );
      const alone = await runEval({
        agent: 'oracle',
        timeScale: TIME_SCALE,
        out: await mkdtemp(path.join(tmpdir(), 'hangbench-e2e-oracle-alone-')),
        cwd: projectRoot,
        concurrency: 1,
        runId: `oracle-alone-${process.pid}`,
        caseInputs: unsolved.map((attempt) => chosen.find((testCase) => testCase.id === attempt.caseId)!.file),
      });
      expect(
        alone.summary.attempts
          .filter((attempt) => !attempt.scores.solved)
          .map((attempt) => [attempt.caseId, attempt.outcome]),
      ).toEqual([]);
      expect(alone.summary.attempts.length).toBe(unsolved.length);
    }, 600_000);

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

    it('every attempt of every agent ends clean, and no process carries a run marker afterwards', () => {
      for (const run of Object.values(runs)) {
        expect(
          run.summary.attempts.filter((attempt) => !attempt.scores.clean).map((attempt) => attempt.caseId),
        ).toEqual([]);
      }
      // run ids carry the pid: another checkout's run on this machine is not taken for a leftover of this one
      expect(AGENTS.flatMap((agent) => attemptMarkerProcesses(`${agent}-${process.pid}.`))).toEqual([]);
    });

    it('hangbench score recomputes the same scores from the traces alone', async () => {
      for (const run of Object.values(runs)) {
        const traces = (await readdir(run.runDir, { recursive: true })).filter((file) => file.endsWith('trace.jsonl'));
        expect(traces.length).toBe(run.summary.attempts.length);
        for (const trace of traces) {
          const recorded = JSON.parse(
            await readFile(path.join(run.runDir, path.dirname(trace), 'score.json'), 'utf8'),
          ) as AttemptScores;
          expect(scoreAttempt(await readTrace(path.join(run.runDir, trace)))).toEqual(recorded);
        }
      }
    });
  });
}
