import path from 'node:path';
import { readSummaryFile } from '../report/index.js';
import { DEFAULTS } from '../defaults.js';
import { planRepeats, type Detect, type Plan } from '../summary/index.js';
import { formatDuration, parseDuration } from '../types/duration.js';
import { HangbenchError } from '../types/errors.js';
import { PLAN_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import { renderFlags } from './flags/render.js';
import type { CliIO } from './io.js';

export function planHelp(): string {
  return `Usage: hangbench plan <run-dir> --detect EFFECT [options]

How many repeats per case a comparison needs, planned from a pilot run (<run-dir>, any run with two or more variants).

${renderFlags(PLAN_FLAGS)}

For every two variants it takes from the pilot how often they disagree on the same (case, repeat) (rates) or how much
their paired differences spread (latency, tokens), and finds the repeats at which the run's own test — McNemar's
exact test, or Wilcoxon's signed-rank — reaches the power at α ${DEFAULTS.alpha} shared over the pairs of variants (as
the run's Holm correction asks). A pair the pilot saw always agree is planned as if it disagreed at least as often as
the effect needs. The cost is the pilot's own: its attempts, wall time and tokens per repeat. Run the plan with
\`hangbench eval … --repeat N\`, or let \`--repeat-until decided --max-repeat N\` stop as soon as the question is answered.`;
}

/** `10pt`, `2s`, `500ms`, `300tokens` → the effect and its unit. */
export function parseDetect(text: string): Detect {
  const points = /^(\d+(?:\.\d+)?)\s*pt$/.exec(text);
  if (points) {
    const value = Number(points[1]) / 100;
    if (!(value > 0 && value <= 1))
      throw new HangbenchError('USAGE', `--detect ${text}: a difference of rates is between 0 and 100 points`);
    return { unit: 'pt', value };
  }
  const tokens = /^(\d+(?:\.\d+)?)\s*tokens?$/.exec(text);
  if (tokens) return { unit: 'tokens', value: Number(tokens[1]) };
  try {
    return { unit: 'ms', value: parseDuration(text) };
  } catch {
    throw new HangbenchError(
      'USAGE',
      `--detect ${text}: give points (10pt), a duration (2s, 500ms) or tokens (300tokens)`,
    );
  }
}

const detectText = (detect: Detect): string =>
  detect.unit === 'pt'
    ? `${Math.round(detect.value * 1000) / 10} pt`
    : detect.unit === 'ms'
      ? formatDuration(detect.value)
      : `${detect.value} tokens`;
const tokensText = (value: number | null): string => (value === null ? '–' : String(Math.round(value)));
const wallText = (value: number | null): string => (value === null ? '–' : formatDuration(Math.round(value)));

export function renderPlan(plan: Plan, runDir: string): string {
  const lines = [
    `plan from ${runDir} (pilot: ${plan.pilotRepeats} repeat${plan.pilotRepeats === 1 ? '' : 's'}; per repeat ${plan.perRepeat.attempts} attempts, ${wallText(plan.perRepeat.wallMs)} wall, ${tokensText(plan.perRepeat.tokens)} tokens)`,
  ];
  lines.push(`to detect ${detectText(plan.detect)} with ${Math.round(plan.power * 100)} % power:`, '');
  if (plan.pairs.length === 0)
    return [...lines, 'no compared pair of variants has a metric in that unit: nothing to plan'].join('\n');
  const rows = plan.pairs.map((pair) => [
    pair.metric,
    `${pair.a} vs ${pair.b}`,
    `${pair.pilotPairs}`,
    pair.discordance === null
      ? `sd ${pair.metric === 'interrupt_latency' ? formatDuration(Math.round(pair.sd ?? 0)) : Math.round(pair.sd ?? 0)}`
      : `${Math.round(pair.discordance * 100)} % disagree`,
    pair.alpha.toPrecision(2),
    pair.repeats === null ? 'more than 1000' : String(pair.repeats),
  ]);
  const head = ['metric', 'pair', 'pilot pairs', 'pilot spread', 'α per pair', 'repeats per case'];
  const widths = head.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  for (const row of [head, ...rows])
    lines.push(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  const { run } = plan;
  lines.push('');
  lines.push(
    run.repeats === null
      ? 'some pair needs more than 1000 repeats per case (or has nothing to plan from): no run of this size decides every pair'
      : `a run that decides every pair: --repeat ${run.repeats} → ${run.attempts} attempts, about ${wallText(run.wallMs)} wall and ${tokensText(run.tokens)} tokens at the pilot's pace`,
  );
  return lines.join('\n');
}

export async function planCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help } = parseFlags(args, PLAN_FLAGS);
  if (help) {
    io.stdout.write(`${planHelp()}\n`);
    return 0;
  }
  const [given, ...extra] = positionals;
  if (given === undefined || extra.length > 0)
    throw new HangbenchError('USAGE', 'plan takes one pilot run: hangbench plan RUN_DIR --detect 10pt');
  const detectFlag = values.detect;
  if (detectFlag === undefined)
    throw new HangbenchError(
      'USAGE',
      'plan needs --detect: the smallest difference to be able to see (10pt, 2s, 300tokens)',
    );
  const runDir = path.resolve(io.cwd, given);
  const summary = await readSummaryFile(runDir);
  if (summary === null)
    throw new HangbenchError(
      'RUN_FOLDER',
      `${runDir} has no summary.json; run \`hangbench report ${given}\` to derive it from the traces`,
    );
  const power = values.power ?? DEFAULTS.power;
  if (!(power > 0 && power < 1))
    throw new HangbenchError('USAGE', `--power ${power}: a probability between 0 and 1, such as 0.8`);
  const metrics = values.metric ?? [];
  const plan = planRepeats(summary, {
    detect: parseDetect(detectFlag),
    power,
    ...(metrics.length > 0 ? { metrics } : {}),
  });
  io.stdout.write(values.json ? `${JSON.stringify({ runDir, ...plan }, null, 2)}\n` : `${renderPlan(plan, runDir)}\n`);
  return 0;
}
