// Tokens per tick of the diagnostic prompt (prompts/diagnostic/tick.md) over the ticks of a baseline run of the case
// library, split by whether the tick's reason names a culprit from a wait-for relation; and how often the first tick
// classified as hung names the case's hang.culprit. BENCH_TRACES=<run dir> reads an existing run instead.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { countTokens } from '../../dist/agents/tokens.js';
import { TICK_PLACEHOLDERS, tickValues } from '../../dist/monitor/index.js';
import { diagnosed } from '../../dist/scorers/index.js';
import { compileTemplate } from '../../dist/types/template.js';
import { libraryCases, projectRoot, runHarness, scratchDir, tickOfEvent, traceEvents } from '../lib/harness.mjs';
import { markdownTable, mean, quantile } from '../lib/stats.mjs';

const SOURCE_TIME_SCALE = 0.1;

export default async function diagnosis() {
  let runDir = process.env.BENCH_TRACES;
  if (!runDir) {
    const dir = await scratchDir('diagnosis');
    runDir = (
      await runHarness([...(await libraryCases()), '--time-scale', String(SOURCE_TIME_SCALE)], { out: `${dir}/out` })
    ).runDir;
  }
  const template = compileTemplate(
    readFileSync(path.join(projectRoot, 'prompts/diagnostic/tick.md'), 'utf8'),
    'prompts/diagnostic/tick.md',
    TICK_PLACEHOLDERS,
  );
  const attempts = await traceEvents(runDir);
  const all = [];
  const withRelation = [];
  const reasons = [];
  for (const events of attempts) {
    for (const event of events.filter((candidate) => candidate.type === 'tick')) {
      const tokens = countTokens(template.render(tickValues(tickOfEvent(event))));
      all.push(tokens);
      reasons.push(countTokens(event.reason));
      if ((event.snapshot.waits?.relations ?? []).length > 0) withRelation.push(tokens);
    }
  }
  const scored = attempts.map((events) => diagnosed(events)).filter((score) => score !== null);
  const row = (name, counts) => [
    name,
    counts.length,
    mean(counts)?.toFixed(0) ?? '–',
    quantile(counts, 0.5) ?? '–',
    quantile(counts, 0.9) ?? '–',
  ];
  const p90 = quantile(all, 0.9);
  return {
    title: 'Diagnosis: tokens per tick (o200k) with the diagnostic prompt, and the diagnosis rate',
    table: markdownTable(
      ['ticks', 'n', 'mean', 'p50', 'p90'],
      [
        row('every tick', all),
        row('ticks with a wait-for relation', withRelation),
        row('the reason line alone', reasons),
      ],
    ),
    notes: [
      `Ticks from ${process.env.BENCH_TRACES ? 'the run in BENCH_TRACES' : `a fresh baseline run at --time-scale ${SOURCE_TIME_SCALE}`}.`,
      `diagnosed (first hung tick names hang.culprit): ${scored.filter(Boolean).length}/${scored.length} hang attempts.`,
      'Goal: p90 ≤ 150 tokens a tick.',
    ],
    data: {
      all: { n: all.length, mean: mean(all), p90 },
      withRelation: { n: withRelation.length, p90: quantile(withRelation, 0.9) },
      diagnosed: { count: scored.filter(Boolean).length, total: scored.length },
    },
    goals: [{ figure: 'diagnostic prompt tokens per tick, p90', value: p90, goal: 150, met: p90 <= 150 }],
  };
}
