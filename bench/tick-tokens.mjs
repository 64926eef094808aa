// Tokens per diagnostic tick over a finished run's traces: the given old tick template whole, the current one whole,
// the current one within its budget, and minimal.  node bench/tick-tokens.mjs <run folder> <old tick.md>
import { readFileSync, readdirSync } from 'node:fs';
import { countTokens } from '../dist/agents/tokens.js';
import { loadPromptSet } from '../dist/agents/openai/prompt-set.js';
import { renderTick } from '../dist/monitor/index.js';
import { compileTemplate } from '../dist/types/template.js';
import { TICK_PLACEHOLDERS } from '../dist/monitor/ticks/tick-values.js';
const run = process.argv[2];
const d = loadPromptSet('diagnostic', process.cwd());
const m = loadPromptSet('minimal', process.cwd());
const old = compileTemplate(readFileSync(process.argv[3], 'utf8').trimEnd(), 'old diagnostic', TICK_PLACEHOLDERS);
const rows = { oldWhole: [], newWhole: [], budgeted: [], minimal: [] };
for (const c of readdirSync(run, { withFileTypes: true }).filter((e) => e.isDirectory())) {
  for (const v of readdirSync(`${run}/${c.name}`)) {
    let text;
    try {
      text = readFileSync(`${run}/${c.name}/${v}/1/trace.jsonl`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.includes('"type":"tick"')) continue;
      const e = JSON.parse(line);
      const tick = {
        commandId: e.commandId,
        seq: e.seq,
        elapsedMs: e.elapsedMs,
        sinceOutputMs: e.sinceOutputMs,
        totalOutputBytes: e.totalOutputBytes,
        output: e.output,
        snapshot: e.snapshot,
        classification: e.classification,
        reason: e.reason,
        culprit: e.culprit ?? null,
      };
      rows.oldWhole.push(countTokens(renderTick(tick, old)));
      rows.newWhole.push(countTokens(renderTick(tick, d.tick)));
      rows.budgeted.push(countTokens(renderTick(tick, d.tick, { tokens: d.tickTokens, count: countTokens })));
      rows.minimal.push(countTokens(renderTick(tick, m.tick)));
    }
  }
}
const q = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
for (const [k, a] of Object.entries(rows))
  console.log(
    k,
    'n',
    a.length,
    'mean',
    Math.round(a.reduce((s, x) => s + x, 0) / a.length),
    'p50',
    q(a, 0.5),
    'p90',
    q(a, 0.9),
    'max',
    Math.max(...a),
  );
