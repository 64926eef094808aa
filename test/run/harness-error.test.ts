import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEval, type RunResult } from '../../src/run/run-eval.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const CASE = 'bash-apt-lock-wait';
const bin = path.join(projectRoot, 'bin/hangbench.js');

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
    await cp(
      path.join(projectRoot, 'fixtures/hanging-programs', CASE),
      path.join(root, 'fixtures/hanging-programs', CASE),
      { recursive: true },
    );
    await cp(
      path.join(projectRoot, 'fixtures/hanging-programs/shared-hidden'),
      path.join(root, 'fixtures/hanging-programs/shared-hidden'),
      { recursive: true },
    );
    execFileSync('mkfifo', [path.join(root, 'fixtures/hanging-programs', CASE, 'workspace', 'uncopyable.fifo')]);
    result = await runEval({
      caseInputs: [
        path.join(root, 'cases', `${CASE}.yaml`),
        path.join(projectRoot, 'test/fixtures/hostile/cases/canary.yaml'),
      ],
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
    expect(result.summary.attempts.find((attempt) => attempt.caseId === 'canary')).toMatchObject({
      outcome: 'completed',
      scores: { completed: true },
    });
  });

  it('has a trace that says so in one line and a score.json from it, which reports and `hangbench score` read', async () => {
    const dir = path.join(result.runDir, CASE, 'baseline-k2·interval-10s', '1');
    const events = (await readFile(path.join(dir, 'trace.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; message?: string; outcome?: string });
    expect(events.map((event) => event.type)).toEqual(['attempt.start', 'error', 'attempt.end']);
    expect(events[1]!.message).toMatch(/could not copy/);
    expect(events[1]!.message).not.toContain('\n');
    expect(events[2]!.outcome).toBe('error');
    const recorded = JSON.parse(await readFile(path.join(dir, 'score.json'), 'utf8')) as unknown;
    expect(recorded).toEqual(result.summary.attempts.find((attempt) => attempt.caseId === CASE));
    const rescored = execFileSync('node', [bin, 'score', result.runDir], { encoding: 'utf8' });
    expect(rescored).toContain('every recorded score.json agrees');
  });

  it('makes `eval` exit 1 with the cause in one line when it is every attempt of the run', () => {
    const run = spawnSync(
      'node',
      [
        bin,
        'eval',
        path.join(root, 'cases', `${CASE}.yaml`),
        '--out',
        path.join(root, 'results'),
        '--run-id',
        `all-broken-${process.pid}`,
        '--time-scale',
        '0.1',
      ],
      { encoding: 'utf8', env: { ...process.env, CI: '1' } },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^hangbench eval: every attempt broke in the harness, so this run measured nothing: .*could not copy.*\(stacks in .*errors\.log\)$/m,
    );
    expect(readdirSync(path.join(root, 'results', `all-broken-${process.pid}`))).toEqual(
      expect.arrayContaining(['report.md', 'report.html', 'summary.json']),
    );
  });
});

/** An installed agent CLI where the run has no bubblewrap sandbox (forced here, as where bubblewrap cannot run). */
describe('an installed agent without the bubblewrap sandbox', () => {
  let root: string;
  let run: ReturnType<typeof spawnSync>;
  const runId = `no-bwrap-${process.pid}`;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'hangbench-no-bwrap-'));
    run = spawnSync(
      'node',
      [
        bin,
        'eval',
        'cases/bash-tail-follow.yaml',
        '--agent',
        'cli:codex',
        '--model',
        'probe',
        '--time-scale',
        '0.1',
      ].concat(['--out', path.join(root, 'results'), '--run-id', runId]),
      {
        cwd: projectRoot,
        encoding: 'utf8',
        // an empty agent cache: the refusal comes before anything would be installed or started
        env: { ...process.env, HANGBENCH_ISOLATION: 'host-user', HANGBENCH_AGENT_CACHE: path.join(root, 'cache') },
      },
    );
  }, 120_000);

  afterAll(() => rm(root, { recursive: true, force: true }));

  it('is a scored ERROR attempt with the cause in one line, reports, and exit 1: the run measured nothing', async () => {
    expect(run.status).toBe(1);
    expect(String(run.stderr)).toMatch(
      /^hangbench eval: every attempt broke in the harness, so this run measured nothing: .*an installed agent runs only inside the bubblewrap sandbox.*install bubblewrap.*$/m,
    );
    const runDir = path.join(root, 'results', runId);
    expect(readdirSync(runDir)).toEqual(
      expect.arrayContaining(['report.md', 'report.html', 'junit.xml', 'summary.json']),
    );
    const dir = path.join(runDir, 'bash-tail-follow', 'cli-codex·interval-10s', '1');
    const events = (await readFile(path.join(dir, 'trace.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; message?: string; outcome?: string });
    expect(events.map((event) => event.type)).toEqual(['attempt.start', 'error', 'attempt.end']);
    expect(events[1]!.message).not.toContain('\n');
    expect(events[2]!.outcome).toBe('error');
    const recorded = JSON.parse(await readFile(path.join(dir, 'score.json'), 'utf8')) as {
      outcome: string;
      scores: { solved: boolean };
    };
    expect(recorded).toMatchObject({ outcome: 'error', scores: { solved: false } });
    expect(execFileSync('node', [bin, 'score', runDir], { encoding: 'utf8' })).toContain(
      'every recorded score.json agrees',
    );
    const report = spawnSync('node', [bin, 'report', runDir], { encoding: 'utf8' });
    expect(report.status).toBe(0);
    expect(report.stderr).toContain('rendered 1 attempt');
  });
});
