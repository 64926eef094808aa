// Tokens per tick for each prompt style (prompts/*) on the ticks of a baseline run over the case library, beside
// the harness's own rendering and a "whole terminal screen every tick" style (80×24, as a screen-scraping agent sees).
import { countTokens } from '../../dist/agents/tokens.js';
import { listBuiltinPrompts, loadPromptSet } from '../../dist/agents/openai/prompt-set.js';
import { renderTick } from '../../dist/monitor/index.js';
import { libraryCases, projectRoot, runHarness, scratchDir, tickOfEvent, traceEvents } from '../lib/harness.mjs';
import { markdownTable, mean, quantile } from '../lib/stats.mjs';

const SOURCE_TIME_SCALE = 0.1;
const SCREEN = { columns: 80, rows: 24 };

function ticksOf(events) {
  return events
    .filter((event) => event.type === 'tick')
    .map((event) => ({
      tick: tickOfEvent(event),
      renderedTokens: event.renderedTokens,
    }));
}

/** What a terminal of 80×24 shows after this tick's output: the last 24 wrapped lines, sent whole each tick. */
function screenStyle() {
  const lines = new Map();
  return (tick) => {
    const previous = lines.get(tick.commandId) ?? [];
    const text = tick.output.text.replace(/\r\n?/g, '\n');
    const wrapped = text
      .split('\n')
      .flatMap((line) =>
        line.length <= SCREEN.columns ? [line] : line.match(new RegExp(`.{1,${SCREEN.columns}}`, 'g')),
      );
    const merged =
      previous.length > 0 && wrapped.length > 0
        ? [...previous.slice(0, -1), previous.at(-1) + wrapped[0], ...wrapped.slice(1)]
        : [...previous, ...wrapped];
    const screen = merged.slice(-SCREEN.rows);
    lines.set(tick.commandId, screen);
    return screen.join('\n');
  };
}

export default async function tokens() {
  let runDir = process.env.BENCH_TRACES;
  if (!runDir) {
    const dir = await scratchDir('tokens');
    runDir = (
      await runHarness([...(await libraryCases()), '--time-scale', String(SOURCE_TIME_SCALE)], { out: `${dir}/out` })
    ).runDir;
  }
  const attempts = (await traceEvents(runDir)).map(ticksOf).filter((ticks) => ticks.length > 0);
  const styles = listBuiltinPrompts().map((name) => {
    const prompt = loadPromptSet(name, projectRoot);
    return {
      name: `prompts/${name}`,
      what:
        prompt.tickTokens === null ? prompt.description : `${prompt.description}, within ${prompt.tickTokens} tokens`,
      // what the agent receives: within the prompt's tick budget where it sets one (the diagnostic prompt)
      perAttempt:
        () =>
        ({ tick }) =>
          renderTick(
            tick,
            prompt.tick,
            prompt.tickTokens === null ? undefined : { tokens: prompt.tickTokens, count: countTokens },
          ),
    };
  });
  /** @typedef {ReturnType<typeof ticksOf>[number]} Entry */
  /** @type {Array<{ name: string, what: string, perAttempt: () => (entry: Entry) => string | number }>} */
  const all = [...styles];
  all.push({
    name: 'harness render (trace)',
    what: "the harness's own tick text, counted in every trace",
    perAttempt: () => (entry) => entry.renderedTokens,
  });
  all.push({
    name: 'terminal screen',
    what: `the whole ${SCREEN.columns}×${SCREEN.rows} screen every tick`,
    perAttempt: () => {
      const screen = screenStyle();
      return ({ tick }) => screen(tick);
    },
  });
  const rows = [];
  const data = [];
  for (const style of all) {
    const counts = [];
    for (const ticks of attempts) {
      const render = style.perAttempt();
      for (const entry of ticks) {
        const text = render(entry);
        counts.push(typeof text === 'number' ? text : countTokens(text));
      }
    }
    const row = { style: style.name, ticks: counts.length, mean: mean(counts), p90: quantile(counts, 0.9) };
    data.push(row);
    rows.push([style.name, style.what, row.mean?.toFixed(0), row.p90, row.ticks]);
  }
  return {
    title: `Tokens per tick (o200k) by prompt style, ${attempts.length} attempts' ticks of a baseline run over the case library`,
    table: markdownTable(['style', 'what the agent sees', 'mean', 'p90', 'ticks'], rows),
    notes: [
      `Ticks from ${process.env.BENCH_TRACES ? runDir : `a fresh baseline run at --time-scale ${SOURCE_TIME_SCALE}`}; mean and p90 over every delivered tick.`,
    ],
    data,
    goals: [],
  };
}
