import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RunMetaSchema } from '../../src/run/meta.js';
import { RunSummarySchema } from '../../src/summary/schema.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/hangbench.js');
const CASES = ['cases/py-pipe-deadlock.yaml', 'cases/py-confirm-prompt.yaml', 'cases/ctl-slow-migrations.yaml'].map(
  (file) => path.join(root, file),
);

describe('a sweep over monitor modes in one run (--time-scale 0.1)', () => {
  it('runs case × variant × repeat, and --json holds one group per variant and every pairwise comparison', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-sweep-'));
    const args = [
      bin,
      'eval',
      ...CASES,
      '--agent',
      'baseline',
      '--mode',
      'interval,timeout',
      '--interval',
      '5s',
      '--repeat',
      '2',
      '--time-scale',
      '0.1',
      '--out',
      out,
      '--run-id',
      'sweep',
      '--json',
    ];
    const { stdout } = await run('node', args, {
      cwd: root,
      env: { ...process.env, CI: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    const { runDir, problems, ...printed } = JSON.parse(stdout) as Record<string, unknown>;
    expect({ runDir, problems }).toEqual({ runDir: path.join(out, 'sweep'), problems: [] });
    const summary = RunSummarySchema.parse(printed);

    expect(summary.attempts).toHaveLength(3 * 2 * 2);
    expect(summary.groups.map((group) => group.variant)).toEqual(['baseline-k2·interval-5s', 'baseline-k2·timeout-5s']);
    // one family per metric, each with the one pair of variants
    expect(summary.comparisons.map((family) => family.metric)).toEqual([
      'interrupted',
      'false_kill',
      'interrupt_latency',
      'solved',
      'fixed',
      'diagnosed',
      'tokens',
    ]);
    const solved = summary.comparisons.find((family) => family.metric === 'solved');
    expect(solved).toMatchObject({
      test: 'mcnemar-exact',
      over: 'all',
      rows: [{ a: 'baseline-k2·interval-5s', b: 'baseline-k2·timeout-5s', pairs: 6 }],
    });
    expect(summary.comparisons.find((family) => family.metric === 'interrupted')?.rows[0]?.pairs).toBe(4);
    expect(summary.caseMatrix.map((row) => row.caseId).sort()).toEqual([
      'ctl-slow-migrations',
      'py-confirm-prompt',
      'py-pipe-deadlock',
    ]);

    // The timeout mode never ticks and never lets the agent interrupt: the harness kills at 0.5 s.
    const timeout = summary.attempts.filter((attempt) => attempt.variant === 'baseline-k2·timeout-5s');
    expect(timeout.every((attempt) => attempt.ticks === 0 && attempt.scores.interrupted !== true)).toBe(true);
    // The interval mode delivers ticks to every attempt (a hang is killed after two of them, or runs on); whether the
    // baseline's kill lands before or after the onset at 0.5 s ticks depends on start-up speed, so it is not asserted.
    const interval = summary.attempts.filter((attempt) => attempt.variant === 'baseline-k2·interval-5s');
    expect(interval.every((attempt) => attempt.ticks >= 1)).toBe(true);
    expect(summary.groups[1]!.interrupted.count).toBe(0);

    // meta.json records the resolved variants, the seed and the start order: the variants of each case and repeat
    // start side by side, so machine noise does not favour one.
    const meta = RunMetaSchema.parse(JSON.parse(await readFile(path.join(out, 'sweep/meta.json'), 'utf8')));
    expect(meta.options.variants.map((variant) => variant.name)).toEqual([
      'baseline-k2·interval-5s',
      'baseline-k2·timeout-5s',
    ]);
    expect(meta.options.seed).toBe(1);
    const order = meta.order ?? [];
    expect([...order].sort()).toEqual(
      summary.attempts.map((attempt) => `${attempt.caseId}/${attempt.variant}/${attempt.repeat}`).sort(),
    );
    for (let index = 0; index < order.length; index += 2) {
      const [caseA, , repeatA] = order[index]!.split('/');
      const [caseB, , repeatB] = order[index + 1]!.split('/');
      expect(`${caseB}/${repeatB}`).toBe(`${caseA}/${repeatA}`);
    }
  });
});
