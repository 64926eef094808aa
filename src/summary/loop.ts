import { mean, percentile } from '../stats/index.js';
import type { AttemptScores } from '../types/scores.js';
import { groupBy } from './group-by.js';
import { rate } from './rates.js';
import type { LoopSummary } from './schema.js';

/** One row per agent/variant that ran a gated or hinted case, in order of first appearance; [] when none did. */
export function summarizeLoop(attempts: readonly AttemptScores[]): LoopSummary[] {
  const looped = attempts.filter(
    (attempt) => attempt.scores.gates_passed !== null || attempt.scores.hint_given !== null,
  );
  return groupBy(looped, (attempt) => JSON.stringify([attempt.agent, attempt.variant])).map((group) => {
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
      solved_after_hint: rate(
        hinted.filter((attempt) => attempt.scores.hint_given === true),
        'solved',
      ),
      solved_without_hint: rate(
        hinted.filter((attempt) => attempt.scores.hint_given === false),
        'solved',
      ),
      hintToActionMs: { count: latencies.length, p50: percentile(latencies, 50), p90: percentile(latencies, 90) },
    };
  });
}
