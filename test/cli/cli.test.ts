import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { attemptMarkerProcesses } from '../support/proc-scan.js';
import { SUMMARY_VERSION } from '../../src/summary/schema.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/hangbench.js');
const cases = path.join(root, 'test/fixtures/cases');

function hangbench(args: string[], options: { cwd?: string } = {}) {
  return execa('node', [bin, ...args], { cwd: options.cwd ?? root, reject: false, env: { CI: '1' } });
}

describe('hangbench CLI', () => {
  it('prints help and exits 0 with --help, 2 without a command', async () => {
    const help = await hangbench(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: hangbench <command>');
    expect((await hangbench(['eval', '--help'])).stdout).toContain('--time-scale F');
    expect((await hangbench([])).exitCode).toBe(2);
  });

  it('exits 2 with a clear message for an unknown command or a bad flag', async () => {
    const unknown = await hangbench(['evaluate']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('unknown command "evaluate"');
    const badInterval = await hangbench(['eval', '--interval', 'soon']);
    expect(badInterval.exitCode).toBe(2);
    expect(badInterval.stderr).toContain('--interval: "soon" is not a duration');
    const badFlag = await hangbench(['eval', '--agnet', 'nop']);
    expect(badFlag.exitCode).toBe(2);
    expect(badFlag.stderr).toMatch(/Unknown option '--agnet'/);
  });

  it('validate lists every problem with file:line:column and exits 2', async () => {
    const result = await hangbench(['validate', path.join(cases, 'bad'), path.join(cases, 'good')]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toContain('unknown-key.yaml:11:3 budgets.wal: unknown field "wal"');
    expect(result.stdout).toMatch(/1 valid case\(s\), 7 problem\(s\) in 7 file\(s\)/);
    expect((await hangbench(['validate', path.join(cases, 'good')])).exitCode).toBe(0);
  });

  it('eval with no case found writes nothing and says why in one line, exit 2', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-nocase-'));
    const result = await hangbench(['eval', path.join(out, 'no-such-cases'), '--out', out]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^hangbench eval: no case to run: .*no-such-cases no such file or folder/m);
    expect(result.stdout).toBe('');
    expect(await readdir(out)).toEqual([]);
  });

  it('eval runs the valid cases, reports the broken ones, exits 2, and --json keeps stdout pure JSON', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-cli-'));
    const result = await hangbench([
      'eval',
      path.join(cases, 'bad'),
      path.join(cases, 'good'),
      '--agent',
      'nop',
      '--out',
      out,
      '--json',
      '--time-scale',
      '0.1',
    ]);
    expect(result.exitCode).toBe(2);
    const summary = JSON.parse(result.stdout) as {
      summaryVersion: number;
      attempts: Array<{ caseId: string; scores: { solved: boolean } }>;
      problems: unknown[];
    };
    expect(summary.summaryVersion).toBe(SUMMARY_VERSION);
    expect(summary.attempts.map((attempt) => attempt.caseId)).toEqual(['good-case']);
    expect(summary.problems).toHaveLength(7);
    expect(result.stderr).toContain('invalid case:');
    expect(result.stderr).toMatch(/good-case .* failed/);
  });

  it('--fail-under exits 3 when the solved rate is below it, and score re-derives the run', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-cli-'));
    const result = await hangbench([
      'eval',
      path.join(cases, 'good'),
      '--agent',
      'nop',
      '--out',
      out,
      '--run-id',
      'r1',
      '--fail-under',
      '50%',
      '--time-scale',
      '0.1',
    ]);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('solved 0/1 is under --fail-under 0.5');
    expect(result.stdout).toContain('good-case');
    const score = await hangbench(['score', path.join(out, 'r1')]);
    expect(score.exitCode).toBe(0);
    expect(score.stdout).toContain('every recorded score.json agrees');
  });

  it('schema prints a JSON Schema that knows the case fields', async () => {
    const result = await hangbench(['schema']);
    const schema = JSON.parse(result.stdout) as {
      oneOf?: Array<{ properties: Record<string, unknown> }>;
      anyOf?: Array<{ properties: Record<string, unknown> }>;
    };
    const variants = schema.oneOf ?? schema.anyOf ?? [];
    expect(variants.length).toBe(2);
    expect(Object.keys(variants[0]!.properties)).toEqual(
      expect.arrayContaining(['title', 'repro', 'budgets', 'verify', 'hang']),
    );
  });

  it('Ctrl-C stops the run, kills every sandbox, keeps what finished, and exits 130', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-sigint-'));
    const child = spawn(
      'node',
      [
        bin,
        'eval',
        path.join(root, 'cases/py-lock-order.yaml'),
        '--out',
        out,
        '--run-id',
        `sigint-${process.pid}`,
        '--agent',
        'baseline',
        '--interval',
        '1m',
      ],
      {
        cwd: root,
        env: { ...process.env, CI: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // wait until the hang is running (its readiness line is in the command log)
    const log = path.join(out, `sigint-${process.pid}`, 'py-lock-order/baseline-k2·interval-1m/1/command-1.log');
    for (;;) {
      const text = await readFile(log, 'utf8').catch(() => '');
      if (text.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(attemptMarkerProcesses(`sigint-${process.pid}.`).length).toBeGreaterThan(0);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(attemptMarkerProcesses(`sigint-${process.pid}.`)).toEqual([]);
    // The interrupted attempt keeps its trace but gets no score.json: it did not finish, and `eval --resume` re-runs it.
    const files = await readdir(path.join(out, `sigint-${process.pid}`, 'py-lock-order/baseline-k2·interval-1m/1'));
    expect(files).toContain('trace.jsonl');
    expect(files).not.toContain('score.json');
    const trace = await readFile(
      path.join(out, `sigint-${process.pid}`, 'py-lock-order/baseline-k2·interval-1m/1/trace.jsonl'),
      'utf8',
    );
    expect(trace).toContain('"by":"harness"');
    const summary = JSON.parse(await readFile(path.join(out, `sigint-${process.pid}`, 'summary.json'), 'utf8')) as {
      interrupted: boolean;
      attempts: unknown[];
    };
    expect(summary).toMatchObject({ interrupted: true, attempts: [] });
    const meta = JSON.parse(await readFile(path.join(out, `sigint-${process.pid}`, 'meta.json'), 'utf8')) as {
      interrupted: boolean;
    };
    expect(meta.interrupted).toBe(true);
  });
});
