import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../src/report/html/page.js';
import type { AttemptScores } from '../../src/types/scores.js';
import { summarize } from '../../src/summary/summarize.js';
import { attemptScores } from './scores-fixture.js';

const attempts = ['a', 'b'].flatMap((variant) =>
  ['case-1', 'case-2'].map((caseId) =>
    attemptScores({ caseId, variant, scores: { solved: !(variant === 'b' && caseId === 'case-2') } }),
  ),
);

const run = (list: readonly AttemptScores[], options: Record<string, unknown> = {}) =>
  summarize(list, { runId: 'r</script><b>', startedAt: '2026-12-01T00:00:00Z', options });

describe('renderReportHtml', () => {
  const summary = run(attempts);
  const html = renderReportHtml({ runDir: '/tmp/r', summary, attempts: [] });

  it('renders one comparison table per metric with the effect, the test and the verdict, and the case matrix', () => {
    const interrupted = html.match(/<table class="comparisons" data-metric="interrupted">.*?<\/table>/)?.[0] ?? '';
    // a interrupted both hangs, b one: +50 pt with Newcombe's interval, McNemar p = 1
    expect(interrupted).toMatch(
      /<tr><th class="name">a<\/th><th class="name">b<\/th><td>2<\/td><td>1 \/ 0<\/td><td class="effect">\+50 pt \[−\d+, \+\d+\]<\/td><td>1\.000<\/td><td class="muted">no difference shown \(too few pairs to show any\)<\/td><\/tr>/,
    );
    expect(html).toContain('<h3>interrupted (hangs)</h3>');
    expect(html).toContain('<h3>tokens per attempt (all attempts)</h3>');
    // no controls in the run: no false-kill table
    expect(html).not.toContain('data-metric="false_kill"');
    expect(html).toContain('<td class="good">1/1</td><td class="bad">0/1</td>');
    expect(html.match(/<g class="variant-point"/g)).toHaveLength(2);
  });

  it('says in the variants table what each rate is over', () => {
    expect(html).toContain(
      '<th>fixed <span class="over">hangs</span></th><th>intact <span class="over">controls</span></th>',
    );
    expect(html).toContain(
      '<th>interrupted <span class="over">hangs</span></th><th>false kills <span class="over">controls</span></th>',
    );
  });

  it('gives variants on one spot of the trade-off chart one label that lists them', () => {
    const same = ['first·interval-2s', 'second·interval-4s', 'third·no-output-2s'].flatMap((variant) =>
      ['case-1', 'case-2'].map((caseId) => attemptScores({ caseId, variant })),
    );
    const crowded = renderReportHtml({ runDir: '/tmp/r', summary: run(same), attempts: [] });
    const chart = crowded.match(/<svg class="tradeoff-chart".*?<\/svg>/)?.[0] ?? '';
    expect(chart.match(/<g class="variant-point"/g)).toHaveLength(3);
    const labels = chart.match(/<text class="point-label[^"]*">.*?<\/text>/g) ?? [];
    expect(labels).toHaveLength(1);
    expect(labels[0]).toContain('point-label grouped');
    for (const name of ['first·interval-2s', 'second·interval-4s', 'third·no-output-2s'])
      expect(labels[0]).toContain(`>${name}</tspan>`);
  });

  it('draws the sweep chart and its table when the variants differ along one axis', () => {
    const variants = [2, 4].flatMap((seconds) => [
      {
        name: `k2·interval-${seconds}s`,
        agent: { agent: 'baseline', hungTicks: 2 },
        monitor: { mode: 'interval', everyMs: seconds * 1000 },
      },
      {
        name: `k2·no-output-${seconds}s`,
        agent: { agent: 'baseline', hungTicks: 2 },
        monitor: { mode: 'no-output', afterMs: seconds * 1000 },
      },
    ]);
    const swept = variants.flatMap((variant) =>
      ['case-1', 'case-2'].map((caseId) => attemptScores({ caseId, variant: variant.name })),
    );
    const page = renderReportHtml({ runDir: '/tmp/r', summary: run(swept, { variants }), attempts: [] });
    const chart = page.match(/<svg class="sweep-chart".*?<\/svg>/)?.[0] ?? '';
    const latency = chart.match(/<g class="panel latency">.*?<\/g><g class="panel rates">/)?.[0] ?? '';
    expect(latency.match(/<path class="line" data-line="[^"]+"/g)).toEqual([
      '<path class="line" data-line="interval"',
      '<path class="line" data-line="no-output"',
    ]);
    expect(
      latency
        .match(/<g class="point[^"]*" data-line="interval" data-x="\d+"/g)
        ?.map((mark) => mark.match(/data-x="(\d+)"/)?.[1]),
    ).toEqual(['2000', '4000']);
    expect(page).toMatch(
      /<table class="sweep">.*<td>2s<\/td><td>interval<\/td><th class="name">k2·<wbr>interval-<wbr>2s<\/th>/,
    );
    expect(html).not.toContain('<svg class="sweep-chart"');
  });

  it('escapes what it inlines and loads nothing from the network', () => {
    expect(html).not.toContain('r</script><b>');
    expect(html).toContain('hangbench run r&lt;/script&gt;&lt;b&gt;');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).toContain("default-src 'none'");
  });
});
