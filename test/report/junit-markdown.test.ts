import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit/junit.js';
import { renderMarkdown } from '../../src/report/markdown/markdown.js';
import { summarize } from '../../src/summary/summarize.js';
import { attemptScores } from './scores-fixture.js';

const attempts = [
  attemptScores({ caseId: 'py-pipe-deadlock' }),
  attemptScores({
    caseId: 'node-busy-loop',
    scores: { solved: false, reproduced: true, interrupted: false, interrupt_latency: 9000 },
  }),
  attemptScores({
    caseId: 'ctl-slow-build',
    kind: 'control',
    scores: { solved: false, false_kill: true, completed: false },
    wallMs: 1500,
  }),
  attemptScores({
    caseId: 'pty-pager',
    outcome: 'error',
    scores: { solved: false, within_budget: false, clean: false },
  }),
];

describe('renderJunit', () => {
  const xml = renderJunit('r1', [
    ...attempts.slice(0, 3).map((scores) => ({ scores })),
    { scores: attempts[3]!, errors: ['agent: endpoint refused <connection>'] },
  ]);

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

  it('says what each rate is over, and renders one comparison table per metric with effects and verdicts', () => {
    const md = renderMarkdown(summarize(attempts, { runId: 'r1', startedAt: '' }));
    expect(md).toContain(
      '| variant | n | solved (all) | interrupted (hangs) | false kills (controls) | fixed (hangs) | intact (controls) |',
    );
    const two = ['v1', 'v2'].flatMap((variant) =>
      ['case-1', 'case-2', 'case-3'].map((caseId) =>
        attemptScores({ caseId, variant, scores: { solved: variant === 'v1' || caseId === 'case-1' } }),
      ),
    );
    const compared = renderMarkdown(summarize(two, { runId: 'r2', startedAt: '' }));
    expect(compared).toContain('### Variant comparison (paired on case and repeat)');
    expect(compared).toContain('#### interrupted (hangs)');
    expect(compared).toContain('| a | b | pairs | a only / b only | a − b [95 % CI] | p | better |');
    expect(compared).toMatch(
      /\| v1 \| v2 \| 3 \| 2 \/ 0 \| \+67 pt \[−\d+, \+\d+\] \| 0\.500 \| no difference shown \(too few pairs to show any\) \|/,
    );
    expect(compared).toContain('#### interrupt latency (hangs both interrupted)');
    expect(compared).not.toContain('Sweep');
  });

  it('adds the sweep table when the variants differ along one axis', () => {
    const variants = [1, 2, 4].map((seconds) => ({
      name: `k2·interval-${seconds}s`,
      agent: { agent: 'baseline', hungTicks: 2 },
      monitor: { mode: 'interval', everyMs: seconds * 1000 },
    }));
    const swept = variants.flatMap((variant, index) =>
      ['case-1', 'case-2'].map((caseId) =>
        attemptScores({ caseId, variant: variant.name, scores: { interrupt_latency: 1000 * (index + 1) } }),
      ),
    );
    const md = renderMarkdown(summarize(swept, { runId: 'r3', startedAt: '', options: { variants } }));
    expect(md).toContain('### Sweep over the interval (the mode’s period)');
    expect(md).toContain(
      '| interval | line | variant | latency p50 [95 % CI] | interrupted (hangs) | false kills (controls) | Pareto |',
    );
    expect(md).toMatch(/\| 1s \| interval \| k2·interval-1s \| 1s \[1s–1s\] \| 2\/2 100% \[\d+–100\] \| – \| ★ \|/);
    expect(md).toMatch(/\| 4s \| interval \| k2·interval-4s \| 3s \[3s–3s\] \| 2\/2 100% \[\d+–100\] \| – \| {2}\|/);
  });
});
