import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../src/report/html/page.js';
import type { RunSummary } from '../../src/summary/schema.js';
import { summarize } from '../../src/summary/summarize.js';
import { attemptScores } from './scores-fixture.js';

const attempts = ['a', 'b'].flatMap((variant) => ['case-1', 'case-2'].map((caseId) => attemptScores({ caseId, variant, scores: { solved: !(variant === 'b' && caseId === 'case-2') } })));

describe('renderReportHtml', () => {
  // Hand-made statistics, so the rendering of each field is pinned (a real run's come from src/summary).
  const summary = {
    ...summarize(attempts, { runId: 'r</script><b>', startedAt: '2026-12-01T00:00:00Z' }),
    summaryVersion: 2,
    comparisons: [{ a: 'a', b: 'b', solved: { test: 'mcnemar-exact', pairs: 2, aOnly: 1, bOnly: 0, p: 1, pAdjusted: 1 }, latency: { test: 'wilcoxon', method: 'exact', pairs: 2, statistic: 0, p: 0.0004, pAdjusted: 0.0008 } }],
    caseMatrix: [{ caseId: 'case-2', kind: 'hang', cells: { a: { solved: 1, total: 1 }, b: { solved: 0, total: 1 } } }],
  } as unknown as RunSummary;
  const html = renderReportHtml({ runDir: '/tmp/r', summary, attempts: [] });

  it('renders the pairwise comparisons and the case matrix when the summary carries them', () => {
    expect(html).toContain('<tr><th>a</th><th>b</th><td>mcnemar-exact</td><td>2</td><td>1 / 0</td><td>1.000</td><td>1.000</td><td>wilcoxon (exact)</td><td>2</td><td>&lt;0.001</td><td>&lt;0.001</td></tr>');
    expect(html).toContain('<td class="good">1/1</td><td class="bad">0/1</td>');
    expect(html.match(/<g class="variant-point">/g)).toHaveLength(2);
  });

  it('escapes what it inlines and loads nothing from the network', () => {
    expect(html).not.toContain('r</script><b>');
    expect(html).toContain('hangbench run r&lt;/script&gt;&lt;b&gt;');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).toContain("default-src 'none'");
  });
});
