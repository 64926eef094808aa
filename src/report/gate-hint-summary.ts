import { z } from 'zod';
import { mean, percentile } from '../scorers/stats.js';
import type { AttemptScores } from '../types/scores.js';
import { DASH, count, duration, fraction, paint, percentWithInterval } from './format.js';
import { rate } from './summary.js';
import { RateSchema } from './summary-schema.js';
import { newTable, tableToString } from './table-style.js';

/** Per agent/variant: how the attempts of gated and hinted cases went (issue 12). */
export const LoopSummarySchema = z.strictObject({
  agent: z.string(),
  variant: z.string(),
  /** over attempts of cases with gates: all gates passed at the accepted finish. */
  gates_passed: RateSchema,
  gateRoundsPerAttempt: z.number().nullable(),
  /** over attempts of cases with hints: a hint reached the agent. */
  hint_given: RateSchema,
  /** solved, over hinted-case attempts where a hint fired, and where none did (hints off, or the trigger never came). */
  solved_after_hint: RateSchema,
  solved_without_hint: RateSchema,
  hintToActionMs: z.strictObject({ count: z.number().int().nonnegative(), p50: z.number().nullable(), p90: z.number().nullable() }),
});

export type LoopSummary = z.infer<typeof LoopSummarySchema>;

/** One row per agent/variant that ran a gated or hinted case, in order of first appearance; [] when none did. */
export function summarizeLoop(attempts: readonly AttemptScores[]): LoopSummary[] {
  const groups = new Map<string, AttemptScores[]>();
  for (const attempt of attempts) {
    if (attempt.scores.gates_passed === null && attempt.scores.hint_given === null) continue;
    const key = JSON.stringify([attempt.agent, attempt.variant]);
    groups.set(key, [...(groups.get(key) ?? []), attempt]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [AttemptScores];
    const gated = group.filter((attempt) => attempt.scores.gate_rounds !== null);
    const hinted = group.filter((attempt) => attempt.scores.hint_given !== null);
    const latencies = hinted.flatMap((attempt) => attempt.scores.hint_to_action ?? []);
    return {
      agent: first.agent,
      variant: first.variant,
      gates_passed: rate(gated, 'gates_passed'),
      gateRoundsPerAttempt: mean(gated.map((attempt) => attempt.scores.gate_rounds ?? 0)),
      hint_given: rate(hinted, 'hint_given'),
      solved_after_hint: rate(hinted.filter((attempt) => attempt.scores.hint_given === true), 'solved'),
      solved_without_hint: rate(hinted.filter((attempt) => attempt.scores.hint_given === false), 'solved'),
      hintToActionMs: { count: latencies.length, p50: percentile(latencies, 50), p90: percentile(latencies, 90) },
    };
  });
}

/** The gate pass rate and the hint comparison; '' when no attempt had gates or hints. */
export function renderLoopTable(rows: readonly LoopSummary[], { color }: { readonly color: boolean } = { color: false }): string {
  if (rows.length === 0) return '';
  const heads = ['agent', 'variant', 'gates passed [95% CI]', 'rounds', 'hint given', 'solved after hint', 'solved, no hint', 'hint→action p50/p90'];
  const table = newTable(heads.map((name) => paint(name, 'bold', color)), ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right']);
  for (const row of rows) {
    const { p50, p90 } = row.hintToActionMs;
    table.push([
      row.agent,
      row.variant,
      percentWithInterval(row.gates_passed),
      count(row.gateRoundsPerAttempt),
      fraction(row.hint_given),
      fraction(row.solved_after_hint),
      fraction(row.solved_without_hint),
      p50 === null ? DASH : `${duration(p50)} / ${duration(p90)}`,
    ]);
  }
  return tableToString(table);
}
