import type { RunSummary } from '../../src/summary/schema.js';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { summarize } from '../../src/summary/summarize.js';
import { attemptScores } from './scores-fixture.js';

const attempts = [
  attemptScores({ caseId: 'py-pipe-deadlock' }),
  attemptScores({ caseId: 'node-busy-loop', scores: { solved: false, reproduced: true, interrupted: false, interrupt_latency: 9000 } }),
  attemptScores({ caseId: 'ctl-slow-build', kind: 'control', scores: { solved: false, false_kill: true, completed: false }, wallMs: 1500 }),
  attemptScores({ caseId: 'pty-pager', outcome: 'error', scores: { solved: false, within_budget: false, clean: false } }),
];

describe('renderJunit', () => {
  const xml = renderJunit('r1', [...attempts.slice(0, 3).map((scores) => ({ scores })), { scores: attempts[3]!, errors: ['agent: endpoint refused <connection>'] }]);

  it('has one test case per attempt with totals that add up', () => {
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain('<testsuites name="hangbench r1" tests="4" failures="2" errors="1"');
    expect(xml).toContain('name="ctl-slow-build #1" time="1.500"');
  });

  it('gives a failure the scores that failed and why, and an ERROR attempt an <error>', () => {
    expect(xml).toContain('<failure message="interrupted late (9s), not fixed" type="hang">');
    expect(xml).toContain('<failure message="false kill, not completed" type="control">');
    expect(xml).toContain('<error message="agent: endpoint refused &lt;connection&gt;" type="error">');
    expect(xml).not.toMatch(/<testcase[^>]*py-pipe-deadlock[^>]*>\s*<failure/);
  });
});

describe('renderMarkdown', () => {
  it('gives totals, the variant row with intervals, and each unsolved attempt with its reason', () => {
    const md = renderMarkdown(summarize(attempts, { runId: 'r1', startedAt: '2026-12-01T00:00:00Z' }));
    expect(md).toContain('**1/4 solved** · 2 failed · 1 errors');
    expect(md).toMatch(/\| baseline-10s \| 4 \| 1\/4 \(25% \[\d+–\d+\]\) \|/);
    expect(md).toContain('- `node-busy-loop` baseline-10s #1 (pipe-write-block): interrupted late (9s), not fixed');
    expect(md).toContain('- `pty-pager` baseline-10s #1 (pipe-write-block): ERROR (harness or endpoint)');
    expect(md).not.toContain('Variant comparison');
  });

  it('renders the pairwise comparisons when the summary carries them', () => {
    const summary = { ...summarize(attempts, { runId: 'r1', startedAt: '' }), summaryVersion: 2, comparisons: [{ a: 'v1', b: 'v2', solved: { test: 'mcnemar', pairs: 10, aOnly: 3, bOnly: 0, p: 0.25, pAdjusted: 0.5 } }] } as unknown as RunSummary;
    expect(renderMarkdown(summary)).toContain('| v1 | v2 | 3 / 0 of 10 | 0.250 (0.500) | – | – |');
  });
});
