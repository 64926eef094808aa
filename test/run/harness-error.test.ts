import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEval, type RunResult } from '../../src/run/run-eval.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const CASE = 'bash-apt-lock-wait';

/**
 * A library case whose workspace holds a FIFO, which the sandbox cannot copy: the attempt breaks in the harness
 * before its agent starts. It scores as an ERROR, the run goes on, and the healthy canary beside it is unaffected.
 */
describe('an attempt whose sandbox cannot be set up', () => {
  let root: string;
  let result: RunResult;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'hangbench-harness-error-'));
    await cp(path.join(projectRoot, 'cases', `${CASE}.yaml`), path.join(root, 'cases', `${CASE}.yaml`));
    await cp(path.join(projectRoot, 'fixtures/hanging-programs', CASE), path.join(root, 'fixtures/hanging-programs', CASE), { recursive: true });
    await cp(path.join(projectRoot, 'fixtures/hanging-programs/shared-hidden'), path.join(root, 'fixtures/hanging-programs/shared-hidden'), { recursive: true });
    execFileSync('mkfifo', [path.join(root, 'fixtures/hanging-programs', CASE, 'workspace', 'uncopyable.fifo')]);
    result = await runEval({
      caseInputs: [path.join(root, 'cases', `${CASE}.yaml`), path.join(projectRoot, 'test/fixtures/hostile/cases/canary.yaml')],
      agent: 'baseline',
      timeScale: 0.1,
      out: path.join(root, 'results'),
      runId: 'harness-error',
      cwd: projectRoot,
    });
  }, 120_000);

  afterAll(() => rm(root, { recursive: true, force: true }));

  it('is an ERROR that passes nothing, with every score its case has', () => {
    const broken = result.summary.attempts.find((attempt) => attempt.caseId === CASE);
    expect(broken).toMatchObject({
      outcome: 'error',
      kind: 'hang',
      ticks: 0,
      tokens: 0,
      scores: {
        reproduced: false,
        interrupted: false,
        interrupt_latency: null,
        fixed: false,
        intact: null,
        false_kill: null,
        completed: null,
        within_budget: false,
        clean: false,
        solved: false,
        // the case has hints and a culprit: an attempt that never ran was given none and named none
        hint_given: false,
        diagnosed: false,
      },
    });
  });

  it('is written to errors.log under its attempt key, and the run goes on', async () => {
    const log = await readFile(path.join(result.runDir, 'errors.log'), 'utf8');
    expect(log).toMatch(new RegExp(`^${CASE}/baseline-k2·interval-10s/1: .*could not copy`, 'm'));
    expect(result.summary.attempts.find((attempt) => attempt.caseId === 'canary')).toMatchObject({ outcome: 'completed', scores: { completed: true } });
  });
});
