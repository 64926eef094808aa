import { formatDuration } from '../../types/duration.js';
import type { Sequential } from '../../summary/index.js';

/** The rounds of an `eval --repeat-until decided` run: what each cost, and which comparison was decided when. */
export function renderSequential(sequential: Sequential): string {
  const why =
    sequential.stopped === 'decided'
      ? 'every comparison decided'
      : sequential.stopped === 'interrupted'
        ? 'interrupted'
        : `--max-repeat ${sequential.maxRepeat} reached`;
  const lines = [
    `repeat until decided (${sequential.metrics.join(', ')}; always-valid sign test, α ${sequential.alpha}): stopped after round ${sequential.rounds.length}, ${why}`,
  ];
  for (const round of sequential.rounds) {
    lines.push(
      `  round ${round.round}: ${round.attempts} attempts, ${formatDuration(Math.round(round.wallMs))} of attempt time, ${Math.round(round.tokens)} tokens; ${round.undecided} undecided after it`,
    );
  }
  for (const entry of sequential.comparisons) {
    const state =
      entry.decidedAtRound === null
        ? `undecided (e-value ${entry.eValue.toPrecision(3)})`
        : `decided at round ${entry.decidedAtRound}: ${entry.better} better`;
    lines.push(
      `  ${entry.metric} ${entry.a} vs ${entry.b}: ${state}; ${entry.forA} of ${entry.signs} differing pairs favoured ${entry.a}`,
    );
  }
  return lines.join('\n');
}
