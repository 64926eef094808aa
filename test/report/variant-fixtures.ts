import type { AttemptScores } from '../../src/types/scores.js';
import { controlAttempt, hangAttempt } from './attempt-fixtures.js';

/** Hollander & Wolfe (1973) p. 29 (R's ?wilcox.test example), in ms: exact two-sided p = 20/512 with `a` slower. */
export const HW_A = [1830, 500, 1620, 2480, 1680, 1880, 1550, 3060, 1300];
export const HW_B = [878, 647, 598, 2050, 1060, 1290, 1060, 3140, 1290];

/** The twelve (caseId, repeat) slots every fixture variant runs: six hang cases × two repeats. */
const SLOTS = Array.from({ length: 12 }, (_, index) => ({
  caseId: `case-${Math.floor(index / 2) + 1}`,
  repeat: (index % 2) + 1,
}));

/**
 * One variant's attempts over the twelve slots: `solved[i]` and `latency[i]` for slot i.
 * A and B below differ on 9 slots: A alone solves slot 2, B alone slots 3..10 (discordant 1 and 8).
 */
export function variantAttempts(
  variant: string,
  solved: readonly boolean[],
  latency: ReadonlyArray<number | null>,
): AttemptScores[] {
  return SLOTS.map((slot, index) =>
    hangAttempt(
      { ...slot, variant, ticks: 4, tokens: 400 * (index + 1) },
      {
        solved: solved[index] ?? false,
        interrupted: solved[index] ?? false,
        interrupt_latency: latency[index] ?? null,
      },
    ),
  );
}

// slots:                0     1     2      3      4      5      6      7      8      9      10     11
const SOLVED_A = [true, true, true, false, false, false, false, false, false, false, false, false];
const SOLVED_B = [true, true, false, true, true, true, true, true, true, true, true, false];
const LATENCY_A = [...HW_A, null, null, null];
const LATENCY_B = [...HW_B, null, 700, null];
// C solves as A does, and interrupts as A does except on two slots (so zero differences: normal approximation)
const LATENCY_C = [...HW_A.slice(0, 7), 2900, 1100, null, null, null];

export const A = variantAttempts('baseline·interval-2s', SOLVED_A, LATENCY_A);
export const B = variantAttempts('baseline·no-output-2s', SOLVED_B, LATENCY_B);
export const C = variantAttempts('baseline·timeout-5s', SOLVED_A, LATENCY_C);

/** A control case run twice by each of A and B: B kills it the first time (a false kill). */
export const CONTROL_B = controlAttempt(
  { variant: 'baseline·no-output-2s', caseId: 'quiet-compute' },
  { false_kill: true, completed: false, solved: false },
);
export const CONTROLS = [
  controlAttempt({ variant: 'baseline·interval-2s', caseId: 'quiet-compute' }),
  controlAttempt({ variant: 'baseline·interval-2s', caseId: 'quiet-compute', repeat: 2 }),
  CONTROL_B,
  controlAttempt({ variant: 'baseline·no-output-2s', caseId: 'quiet-compute', repeat: 2 }),
];
