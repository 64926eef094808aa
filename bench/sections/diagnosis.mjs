// Tokens per tick of the diagnostic prompt (prompts/diagnostic/tick.md) over the ticks of a baseline run of the case
// library, as the agent receives them (within the prompt's tick budget) and whole, split by whether the tick's reason
// names a culprit from a wait-for relation; how often the first tick classified as hung names the case's hang.culprit,
// and how often that tick's budgeted text still names it. BENCH_TRACES=<run dir> reads an existing run instead.
import { countTokens } from '../../dist/agents/tokens.js';
import { loadPromptSet } from '../../dist/agents/openai/prompt-set.js';
import { renderTick } from '../../dist/monitor/index.js';
import { diagnosed } from '../../dist/scorers/index.js';
import { looksHung } from '../../dist/types/process.js';
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
  const prompt = loadPromptSet('diagnostic', projectRoot);
  const budget = { tokens: prompt.tickTokens ?? Infinity, count: countTokens };
  const attempts = await traceEvents(runDir);
  const all = [];
  const whole = [];
  const withRelation = [];
  const reasons = [];
  for (const events of attempts) {
    for (const event of events.filter((candidate) => candidate.type === 'tick')) {
      const tick = tickOfEvent(event);
      const tokens = countTokens(renderTick(tick, prompt.tick, budget));
      all.push(tokens);
      whole.push(countTokens(renderTick(tick, prompt.tick)));
      reasons.push(countTokens(event.reason));
      if ((event.snapshot.waits?.relations ?? []).length > 0) withRelation.push(tokens);
    }
  }
  const scored = attempts.map((events) => diagnosed(events)).filter((score) => score !== null);
  // Of the diagnosed attempts: does the first hung tick, as rendered within the budget, still show the culprit's
  // line (its pid as the command sees it, then its command name)?
  const shown = attempts
    .filter((events) => diagnosed(events) === true)
    .map((events) => {
      const onset = events.findIndex((event) => event.type === 'onset');
      const first = events
        .slice(onset)
        .find(
          (event) =>
            event.type === 'tick' && event.commandId === events[onset].commandId && looksHung(event.classification),
        );
      const culprit = first?.snapshot.processes.find((process) => process.pid === first.culprit);
      if (!first || !culprit) return false;
      const lines = renderTick(tickOfEvent(first), prompt.tick, budget).split('\n');
      return lines.some((line) =>
        line.trimStart().startsWith(`${culprit.innerPid ?? culprit.pid} ${culprit.command} `),
      );
    });
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
        row(`every tick, within the prompt's ${prompt.tickTokens}-token budget (what the agent receives)`, all),
        row('every tick, whole (no budget)', whole),
        row('ticks with a wait-for relation', withRelation),
        row('the reason line alone', reasons),
      ],
    ),
    notes: [
      `Ticks from ${process.env.BENCH_TRACES ? 'the run in BENCH_TRACES' : `a fresh baseline run at --time-scale ${SOURCE_TIME_SCALE}`}.`,
      `diagnosed (first hung tick names hang.culprit): ${scored.filter(Boolean).length}/${scored.length} hang attempts; that tick's budgeted text shows the culprit's process line in ${shown.filter(Boolean).length}/${shown.length} of them.`,
      'Goal: p90 ≤ 150 tokens a tick.',
    ],
    data: {
      all: { n: all.length, mean: mean(all), p90 },
      whole: { n: whole.length, mean: mean(whole), p90: quantile(whole, 0.9) },
      culpritShown: { count: shown.filter(Boolean).length, total: shown.length },
      withRelation: { n: withRelation.length, p90: quantile(withRelation, 0.9) },
      diagnosed: { count: scored.filter(Boolean).length, total: scored.length },
    },
    goals: [{ figure: 'diagnostic prompt tokens per tick, p90', value: p90, goal: 150, met: p90 <= 150 }],
  };
}
