import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';
import { RunSummarySchema } from '../../src/summary/schema.js';
import { scoreAttempt } from '../../src/scorers/index.js';
import { solvedControl, solvedHang } from '../scorers/trace-builder.js';
import { META, controlAttempt, hangAttempt } from '../report/attempt-fixtures.js';

const attempts = [
  hangAttempt({ repeat: 1 }, { interrupt_latency: 1000 }),
  hangAttempt({ repeat: 2 }, { interrupt_latency: 3000 }),
  hangAttempt({ repeat: 3, tokens: 3000 }, { interrupted: false, interrupt_latency: 45_000, solved: false }),
  hangAttempt(
    { repeat: 4, outcome: 'error', ticks: 0, tokens: 0, wallMs: 500 },
    {
      reproduced: false,
      interrupted: false,
      interrupt_latency: null,
      fixed: false,
      within_budget: false,
      clean: false,
      solved: false,
    },
  ),
  controlAttempt({ repeat: 1 }),
  controlAttempt({ repeat: 2 }, { false_kill: true, completed: false, solved: false }),
  hangAttempt({ variant: 'no-output-5s' }, { interrupt_latency: 8000 }),
  hangAttempt(
    { variant: 'no-output-5s', caseId: 'node-stdin', class: 'stdin-wait' },
    { reproduced: false, solved: false },
  ),
];

describe('summarize', () => {
  const summary = summarize(attempts, { ...META, hangbenchVersion: '0.1.0' });
  const [interval, noOutput] = summary.groups;

  it('carries the run metadata and a version, and validates against its own schema', () => {
    expect(summary).toMatchObject({
      summaryVersion: 4,
      runId: 'run-1',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: null,
      hangbenchVersion: '0.1.0',
      options: { timeScale: 0.1, repeats: 2 },
      totals: { attempts: 8, solved: 4, errors: 1 },
    });
    expect(RunSummarySchema.parse(JSON.parse(JSON.stringify(summary)))).toEqual(summary);
  });

  it('groups by variant name in order of first appearance', () => {
    expect(summary.groups.map((g) => `${g.agent}/${g.variant}`)).toEqual([
      'baseline/interval-10s',
      'baseline/no-output-5s',
    ]);
  });

  it('counts rates over the right denominators', () => {
    expect(interval).toMatchObject({ attempts: 6, hangAttempts: 4, controlAttempts: 2, errors: 1 });
    expect(interval?.solved).toMatchObject({ count: 3, total: 6, rate: 0.5 });
    expect(interval?.reproduced).toMatchObject({ count: 3, total: 4, rate: 0.75 });
    expect(interval?.interrupted).toMatchObject({ count: 2, total: 4, rate: 0.5 });
    expect(interval?.false_kill).toMatchObject({ count: 1, total: 2, rate: 0.5 });
    expect(interval?.completed).toMatchObject({ count: 1, total: 2 });
    // fixed counts hangs only (the errored one never reached verify); a control's verify is `intact`
    expect(interval?.fixed).toMatchObject({ count: 3, total: 4, over: 'hangs' });
    expect(interval?.intact).toMatchObject({ count: 2, total: 2, over: 'controls' });
    expect([interval?.solved.over, interval?.interrupted.over, interval?.false_kill.over]).toEqual([
      'all',
      'hangs',
      'controls',
    ]);
    expect(interval?.clean).toMatchObject({ count: 5, total: 6 });
    expect(interval?.within_budget).toMatchObject({ count: 5, total: 6 });
    expect(noOutput?.false_kill).toEqual({ count: 0, total: 0, rate: null, low: null, high: null, over: 'controls' });
  });

  it('gives each rate its Wilson interval', () => {
    expect(interval?.solved.low).toBeCloseTo(0.1876, 3);
    expect(interval?.solved.high).toBeCloseTo(0.8124, 3);
  });

  it('takes latency percentiles over every agent kill after onset, late ones included', () => {
    expect(interval?.interruptLatencyMs).toMatchObject({ count: 3, p50: 3000, p90: 45_000 });
    expect(noOutput?.interruptLatencyMs).toMatchObject({ count: 2, p50: 2000, p90: 8000 });
  });

  it('brackets each latency percentile with a bootstrap interval of observed values', () => {
    const latency = interval?.interruptLatencyMs;
    expect(latency?.p50Low).toBeLessThanOrEqual(3000);
    expect(latency?.p50High).toBeGreaterThanOrEqual(3000);
    expect(latency?.p90High).toBe(45_000);
    for (const end of [latency?.p50Low, latency?.p50High, latency?.p90Low, latency?.p90High])
      expect([1000, 3000, 45_000]).toContain(end);
    expect(summary.statistics).toEqual({ seed: 1, resamples: 2000 });
  });

  it('draws the same intervals for the same seed and records the seed', () => {
    const again = summarize(attempts, { ...META, seed: 99, resamples: 50 });
    expect(summarize(attempts, { ...META, seed: 99, resamples: 50 }).groups).toEqual(again.groups);
    expect(again.statistics).toEqual({ seed: 99, resamples: 50 });
  });

  it('gives pass@k and pass^k per case over its repeats, averaged over cases', () => {
    // interval-10s: py-pipe-deadlock solved 2 of 4, quiet-compute 1 of 2 → k = 1, 2
    expect(interval?.passAtK.map((point) => point.k)).toEqual([1, 2]);
    expect(interval?.passAtK[0]?.passAtK).toBeCloseTo((2 / 4 + 1 / 2) / 2, 12);
    // pass@2: 1 − C(2,2)/C(4,2) = 5/6 and 1 − 0 = 1; pass^2: C(2,2)/C(4,2) = 1/6 and 0
    expect(interval?.passAtK[1]).toMatchObject({ k: 2, cases: 2 });
    expect(interval?.passAtK[1]?.passAtK).toBeCloseTo((5 / 6 + 1) / 2, 12);
    expect(interval?.passAtK[1]?.passHatK).toBeCloseTo(1 / 12, 12);
  });

  it('gives tokens per tick over the whole variant', () => {
    expect(interval?.tokensPerTick).toBeCloseTo((1200 + 1200 + 3000 + 0 + 800 + 800) / (3 + 3 + 3 + 0 + 5 + 5), 6);
    const silent = summarize([hangAttempt({ ticks: 0 })], META);
    expect(silent.groups[0]?.tokensPerTick).toBeNull();
  });

  it('compares the two variants on their shared (case, repeat) pairs and lists the case matrix', () => {
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
    expect(solved?.rows).toHaveLength(1);
    expect(solved?.rows[0]).toMatchObject({
      a: 'interval-10s',
      b: 'no-output-5s',
      pairs: 1,
      both: 1,
      difference: 0,
      better: null,
    });
    expect(summary.sweep).toBeNull();
    expect(summary.caseMatrix.map((row) => row.caseId)).toEqual(['node-stdin', 'py-pipe-deadlock', 'quiet-compute']);
    expect(summary.caseMatrix[1]?.cells).toEqual({
      'interval-10s': { solved: 2, total: 4 },
      'no-output-5s': { solved: 1, total: 1 },
    });
  });

  it('averages ticks, tokens and wall time per attempt', () => {
    expect(interval?.ticksPerAttempt).toBeCloseTo((3 + 3 + 3 + 0 + 5 + 5) / 6, 6);
    expect(interval?.tokensPerAttempt).toBeCloseTo((1200 + 1200 + 3000 + 0 + 800 + 800) / 6, 6);
    expect(interval?.wallMsPerAttempt).toBeCloseTo((12_300 * 3 + 500 + 20_000 * 2) / 6, 6);
  });

  it('breaks down by class per group, hang classes first', () => {
    expect(summary.classes.map((c) => `${c.class}@${c.variant}`)).toEqual([
      'pipe-write-block@interval-10s',
      'pipe-write-block@no-output-5s',
      'stdin-wait@no-output-5s',
      'quiet-compute@interval-10s',
    ]);
    expect(summary.classes[0]).toMatchObject({
      kind: 'hang',
      attempts: 4,
      solved: { count: 2 },
      interrupted: { count: 2, total: 4 },
      falseKills: 0,
    });
    expect(summary.classes[3]).toMatchObject({
      kind: 'control',
      attempts: 2,
      solved: { count: 1 },
      interrupted: { total: 0 },
      falseKills: 1,
    });
  });

  it('lists every attempt’s scores under the DESIGN names', () => {
    expect(summary.attempts).toHaveLength(8);
    expect(Object.keys(summary.attempts[0]?.scores ?? {}).sort()).toEqual([
      'agent_boot_cpu_ms',
      'agent_boot_ms',
      'agent_exit',
      'agent_exit_ms',
      'clean',
      'completed',
      'diagnosed',
      'false_kill',
      'fixed',
      'gate_rounds',
      'gates_passed',
      'hang_tax_ms',
      'hang_tax_tokens',
      'hint_given',
      'hint_to_action',
      'intact',
      'interrupt_latency',
      'interrupted',
      'left_after_exit',
      'left_after_tool',
      'reproduced',
      'solved',
      'tool_end',
      'tool_result',
      'tool_return_ms',
      'tool_timeout_ms',
      'within_budget',
    ]);
  });

  it('summarizes scored traces end to end', () => {
    const scored = [scoreAttempt(solvedHang().build()), scoreAttempt(solvedControl().build())];
    const result = summarize(scored, META);
    expect(result.totals).toEqual({ attempts: 2, solved: 2, errors: 0 });
    expect(result.groups[0]?.solved).toMatchObject({ count: 2, total: 2, rate: 1, high: 1 });
  });

  it('handles a run with no attempts', () => {
    const empty = summarize([], META);
    expect(empty.groups).toEqual([]);
    expect(empty.totals).toEqual({ attempts: 0, solved: 0, errors: 0 });
  });
});
