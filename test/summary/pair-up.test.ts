import { describe, expect, it } from 'vitest';
import { compareSummaries } from '../../src/report/compare/compare.js';
import { summarize } from '../../src/summary/summarize.js';
import { COMPARED_METRICS, METRICS, RATE_METRICS } from '../../src/summary/compared-metrics.js';
import { pairUp } from '../../src/summary/pair-up.js';
import { attemptScores } from '../report/scores-fixture.js';

describe('pairUp', () => {
  it('pairs on (caseId, repeat) once per key: the first attempt of each side, so no attempt is in two pairs', () => {
    const a = [
      attemptScores({ repeat: 1, wallMs: 1 }),
      attemptScores({ repeat: 1, wallMs: 2 }),
      attemptScores({ repeat: 2, wallMs: 3 }),
    ];
    const b = [
      attemptScores({ repeat: 1, wallMs: 10 }),
      attemptScores({ repeat: 1, wallMs: 20 }),
      attemptScores({ repeat: 3, wallMs: 30 }),
    ];
    const pairs = pairUp(a, b);
    expect(pairs.map(([left, right]) => [left.wallMs, right.wallMs])).toEqual([[1, 10]]);
  });

  it('is the rule compare uses too: a duplicated base attempt no longer counts twice', () => {
    const base = [
      attemptScores({ variant: 'v', scores: { solved: true } }),
      attemptScores({ variant: 'v', scores: { solved: true } }),
    ];
    const next = [attemptScores({ variant: 'v', scores: { solved: false } })];
    const meta = { runId: 'r', startedAt: '2026-01-01T00:00:00Z' };
    const comparison = compareSummaries(summarize(base, meta), summarize(next, meta));
    const solved = comparison.variants[0]?.rates.find((rate) => rate.name === 'solved');
    expect(solved?.paired?.pairs).toBe(1);
    expect(solved?.paired?.baseOnly).toBe(1);
  });
});

describe('the metric table', () => {
  it('is the one source of the compared metrics, the group rates and compare’s rates', () => {
    expect(COMPARED_METRICS.map((metric) => metric.metric)).toEqual([
      'interrupted',
      'false_kill',
      'interrupt_latency',
      'solved',
      'fixed',
      'diagnosed',
      'tokens',
    ]);
    const group = summarize([attemptScores(), attemptScores({ kind: 'control', repeat: 2 })], {
      runId: 'r',
      startedAt: '2026-01-01T00:00:00Z',
    }).groups[0]!;
    for (const metric of RATE_METRICS) expect(group[metric.metric].over).toBe(metric.over);
    expect(new Set(METRICS.map((metric) => metric.metric)).size).toBe(METRICS.length);
  });
});
