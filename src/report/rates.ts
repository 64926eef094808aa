import { wilson } from '../stats/index.js';
import type { AttemptScores } from '../types/scores.js';
import type { Rate } from './summary-schema.js';

export type ScoreName = keyof AttemptScores['scores'];

/** How many attempts scored `true` on `score`, with the 95 % Wilson interval of that rate. */
export function rate(attempts: readonly AttemptScores[], score: ScoreName): Rate {
  const count = attempts.filter((attempt) => attempt.scores[score] === true).length;
  const interval = wilson(count, attempts.length);
  return {
    count,
    total: attempts.length,
    rate: attempts.length === 0 ? null : count / attempts.length,
    low: interval?.low ?? null,
    high: interval?.high ?? null,
  };
}
