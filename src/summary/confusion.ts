import { CLASSIFICATIONS, looksHung, type Classification } from '../types/process.js';
import type { AttemptScores } from '../types/scores.js';
import { groupBy } from './group-by.js';
import { rate } from './rates.js';
import type { Confusion, ConfusionRow } from './schema.js';

/** The column of attempts whose command had no tick before the kill or exit (or never ran). */
const NO_TICK = 'none';

/**
 * How well the monitor's classification tells the cases apart: the true class of each case against the monitor's
 * classification at the agent's kill or the repro's exit (classificationAtEnd), per agent/variant; plus how often a
 * healthy control was killed. A baseline run makes this the monitor's own confusion matrix.
 */
export function summarizeConfusion(attempts: readonly AttemptScores[]): Confusion[] {
  return groupBy(attempts, (attempt) => JSON.stringify([attempt.agent, attempt.variant])).map((group) => {
    const [first] = group as [AttemptScores];
    const rows = new Map<
      string,
      {
        class: string;
        kind: AttemptScores['kind'];
        attempts: number;
        looksHung: number;
        counts: Record<string, number>;
      }
    >();
    for (const attempt of group) {
      const row = rows.get(attempt.class) ?? {
        class: attempt.class,
        kind: attempt.kind,
        attempts: 0,
        looksHung: 0,
        counts: {},
      };
      const column = attempt.classificationAtEnd ?? NO_TICK;
      row.attempts += 1;
      row.counts[column] = (row.counts[column] ?? 0) + 1;
      if (isClassification(column) && looksHung(column)) row.looksHung += 1;
      rows.set(attempt.class, row);
    }
    const seen = new Set(group.map((attempt) => attempt.classificationAtEnd ?? NO_TICK));
    return {
      agent: first.agent,
      variant: first.variant,
      columns: [...CLASSIFICATIONS, NO_TICK].filter((column) => seen.has(column)),
      rows: [...rows.values()].sort(byKindThenClass),
      falseKills: rate(
        group.filter((attempt) => attempt.kind === 'control'),
        'false_kill',
      ),
    };
  });
}

function isClassification(column: string): column is Classification {
  return (CLASSIFICATIONS as readonly string[]).includes(column);
}

function byKindThenClass(a: ConfusionRow, b: ConfusionRow): number {
  if (a.kind !== b.kind) return a.kind === 'hang' ? -1 : 1;
  return a.class < b.class ? -1 : a.class > b.class ? 1 : 0;
}
