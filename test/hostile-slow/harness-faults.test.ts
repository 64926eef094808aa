import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attemptMarkerProcesses } from '../support/proc-scan.js';
import { PROJECT_ROOT } from './run-hostile.js';

const bin = path.join(PROJECT_ROOT, 'bin/hangbench.js');
const fixtures = path.join(PROJECT_ROOT, 'test/fixtures/hostile');

interface Cli {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  readonly output: () => string;
}

function hangbench(args: string[]): Cli {
  const child = spawn('node', [bin, ...args], { cwd: PROJECT_ROOT, env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => text };
}

/** Polls for something another process does (a file written, processes gone); `what` names it when it never comes. */
async function until<T>(probe: () => Promise<T | null> | T | null, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const exists = (file: string) => stat(file).then(() => true, () => false);
const json = async <T>(file: string) => JSON.parse(await readFile(file, 'utf8')) as T;

interface Summary {
  interrupted: boolean;
  attempts: Array<{ caseId: string; repeat: number; outcome: string }>;
}

describe('the harness stopped mid-run', () => {
  it('SIGTERM kills every sandbox within a second (a fork bomb and a program ignoring TERM among them), keeps what finished, marks the run interrupted', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-sigterm-'));
    const runId = `sigterm${process.pid}`;
    const cli = hangbench([
      'eval', path.join(fixtures, 'cases/canary.yaml'), path.join(fixtures, 'special/stubborn.yaml'), path.join(fixtures, 'special/bomb.yaml'),
      '--agent', 'baseline', '--hung-ticks', '1000000', '--time-scale', '0.1', '--interval', '2s', '--concurrency', '3', '--out', out, '--run-id', runId,
    ]);
    const run = path.join(out, runId);
    await until(async () => ((await exists(path.join(run, 'canary/baseline-k1000000·interval-2s/1/score.json'))) ? true : null), 'the canary to finish');
    await until(async () => ((await readFile(path.join(run, 'stubborn/baseline-k1000000·interval-2s/1/command-1.log'), 'utf8').catch(() => '')).includes('ignoring') ? true : null), 'the stubborn program');
    await until(async () => ((await readFile(path.join(run, 'bomb/baseline-k1000000·interval-2s/1/command-1.log'), 'utf8').catch(() => '')).includes('forking') ? true : null), 'the fork bomb');
    // No marker scan while the bomb runs: reading a forking process's environ waits for its mmap lock.

    const signalledAt = performance.now();
    cli.child.kill('SIGTERM');
    await until(() => (attemptMarkerProcesses(`${runId}.`).length === 0 ? true : null), 'every sandboxed process to be gone');
    const goneAfterMs = performance.now() - signalledAt;
    console.log(`SIGTERM → every sandboxed process gone in ${goneAfterMs.toFixed(0)} ms`);
    expect(goneAfterMs).toBeLessThanOrEqual(1_000);
    expect(await cli.exited).toBe(130);

    const summary = await json<Summary>(path.join(run, 'summary.json'));
    expect(summary.interrupted).toBe(true);
    expect(summary.attempts.map((attempt) => [attempt.caseId, attempt.outcome])).toEqual([['canary', 'completed']]);
    expect((await json<{ interrupted: boolean }>(path.join(run, 'meta.json'))).interrupted).toBe(true);
    for (const stopped of ['stubborn', 'bomb']) {
      expect(await exists(path.join(run, stopped, 'baseline-k1000000·interval-2s/1/score.json'))).toBe(false);
      expect(await readFile(path.join(run, stopped, 'baseline-k1000000·interval-2s/1/trace.jsonl'), 'utf8')).toContain('"by":"harness"');
    }
  });

  it('Ctrl-C, then eval --resume runs only the unfinished attempts into the same folder', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-resume-'));
    const runId = `resume${process.pid}`;
    const run = path.join(out, runId);
    const first = hangbench([
      'eval', path.join(fixtures, 'cases/canary.yaml'), '--agent', 'baseline', '--time-scale', '0.1', '--interval', '2s',
      '--repeat', '3', '--concurrency', '1', '--out', out, '--run-id', runId,
    ]);
    const firstScore = path.join(run, 'canary/baseline-k2·interval-2s/1/score.json');
    await until(async () => ((await exists(firstScore)) ? true : null), 'the first attempt to finish');
    await until(async () => ((await exists(path.join(run, 'canary/baseline-k2·interval-2s/2/command-1.log'))) ? true : null), 'the second attempt to start');
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(130);
    const before = await json<Summary>(path.join(run, 'summary.json'));
    expect(before.interrupted).toBe(true);
    expect(before.attempts.map((attempt) => attempt.repeat)).toEqual([1]);
    const firstScoreText = await readFile(firstScore, 'utf8');
    const firstStat = await stat(firstScore);

    const resumed = hangbench(['eval', '--resume', run, '--json']);
    expect(await resumed.exited).toBe(0);
    const after = await json<Summary>(path.join(run, 'summary.json'));
    expect(after.interrupted).toBe(false);
    expect(after.attempts.map((attempt) => [attempt.repeat, attempt.outcome])).toEqual([[1, 'completed'], [2, 'completed'], [3, 'completed']]);
    expect(await readFile(firstScore, 'utf8')).toBe(firstScoreText);
    expect((await stat(firstScore)).mtimeMs).toBe(firstStat.mtimeMs);
    const meta = await json<{ interrupted: boolean; resumedAt: string[]; runId: string }>(path.join(run, 'meta.json'));
    expect(meta).toMatchObject({ interrupted: false, runId });
    expect(meta.resumedAt).toHaveLength(1);
    expect(resumed.output()).toContain('"summaryVersion"');
  });

  it('a second Ctrl-C exits at once and still leaves nothing running', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-twice-'));
    const runId = `twice${process.pid}`;
    const cli = hangbench([
      'eval', path.join(fixtures, 'special/stubborn.yaml'), '--agent', 'baseline', '--hung-ticks', '1000000', '--time-scale', '0.1',
      '--interval', '2s', '--out', out, '--run-id', runId,
    ]);
    await until(async () => ((await readFile(path.join(out, runId, 'stubborn/baseline-k1000000·interval-2s/1/command-1.log'), 'utf8').catch(() => '')).includes('ignoring') ? true : null), 'the stubborn program');
    // The first Ctrl-C starts the escalation (this program ignores INT and TERM: it takes SIGKILL, 600 ms later).
    cli.child.kill('SIGINT');
    await until(() => (cli.output().includes('stopping') ? true : null), 'the first Ctrl-C to be taken');
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(130);
    await until(() => (attemptMarkerProcesses(`${runId}.`).length === 0 ? true : null), 'the stubborn program to be gone', 1_000);
  });
});
