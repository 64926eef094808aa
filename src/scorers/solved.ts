import type { AttemptScores } from '../types/scores.js';

type Parts = Pick<
  AttemptScores['scores'],
  'reproduced' | 'interrupted' | 'fixed' | 'false_kill' | 'completed' | 'within_budget'
>;

/**
 * hang: reproduced ∧ interrupted ∧ fixed ∧ within_budget; control: ¬false_kill ∧ completed ∧ within_budget.
 * An attempt whose outcome is `error` (the harness or endpoint broke) is never solved.
 */
export function solved(kind: AttemptScores['kind'], outcome: AttemptScores['outcome'], parts: Parts): boolean {
  if (outcome === 'error') return false;
  if (kind === 'hang')
    return parts.reproduced === true && parts.interrupted === true && parts.fixed === true && parts.within_budget;
  return parts.false_kill === false && parts.completed === true && parts.within_budget;
}
