import { formatDuration } from '../types/duration.js';
import type { AttemptScores } from '../types/scores.js';

/** The scores that kept an attempt from being solved, in words: `not interrupted`, `false kill`, `over budget`. */
export function missedScores(scores: AttemptScores): string[] {
  const s = scores.scores;
  const missed: string[] = [];
  if (scores.kind === 'hang') {
    if (s.reproduced === false) missed.push('not reproduced');
    if (s.interrupted === false) {
      missed.push(
        s.interrupt_latency === null ? 'not interrupted' : `interrupted late (${formatDuration(s.interrupt_latency)})`,
      );
    }
  } else {
    if (s.false_kill === true) missed.push('false kill');
    if (s.completed === false) missed.push('not completed');
  }
  if (s.fixed === false) missed.push('not fixed');
  if (!s.within_budget) missed.push('over budget');
  return missed;
}
