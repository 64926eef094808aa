/**
 * Repetition as evidence: the same line (or the same few lines) printed again and again, with at most a counter that
 * counts the repeats (`attempt 7`, `… 3s`), is a retry loop or a lock wait, not progress. A line that says how far
 * it got (`64%`, `3/20`, `1200 of 5000`) or a number that moves by more than one a line (bytes, records) is progress.
 */

export interface Repetition {
  /** consecutive lines so far that repeat the line (or cycle of lines) before them. */
  readonly lines: number;
  /** 1: one line again and again; 2 or 3: a cycle of that many lines. */
  readonly period: number;
  /** the latest line of the run, as printed. */
  readonly line: string;
  /** every line of the latest tick's output belongs to the run (nothing else was printed). */
  readonly wholeTick: boolean;
}

/** A cycle of up to this many lines counts as "the same few lines". */
const MAX_PERIOD = 3;
const PROGRESS_MARK = /\d\s*%|\b\d+\s*\/\s*\d+\b|\b\d+ of \d+\b/;
const NUMBER = /\d+(?:\.\d+)?/g;
const FOLD_MARK = /^… \(line repeated (\d+) more times?\)$/;
const CUT_MARK = /^… \[\d+ bytes cut\] …$/;

interface Seen {
  readonly template: string;
  readonly numbers: readonly number[];
  readonly line: string;
}

/** Fed each tick's output text (folded as the tick shows it); remembers the last few lines across ticks. */
export class RepetitionTracker {
  private readonly history: Seen[] = [];
  /** per period p (index p − 1): consecutive lines equal to the line p before them. */
  private readonly runs: number[] = new Array<number>(MAX_PERIOD).fill(0);

  feed(text: string): Repetition | null {
    const lines = text.split('\n').filter((line) => line.trim() !== '' && !CUT_MARK.test(line));
    let fed = 0;
    for (const line of lines) {
      const fold = FOLD_MARK.exec(line);
      const last = this.history[this.history.length - 1];
      if (fold && last) {
        // folded lines are identical to the one before them: each one repeats it with period 1
        const times = Number(fold[1]);
        for (let i = 0; i < times; i++) this.push(last);
        fed += times;
        continue;
      }
      this.push({ template: line.replace(NUMBER, '#'), numbers: (line.match(NUMBER) ?? []).map(Number), line });
      fed++;
    }
    const best = Math.max(...this.runs);
    const period = this.runs.indexOf(best) + 1;
    const latest = this.history[this.history.length - 1];
    if (best === 0 || !latest || fed === 0) return null;
    return { lines: best + period, period, line: latest.line, wholeTick: best + period >= fed };
  }

  private push(seen: Seen): void {
    const progress = PROGRESS_MARK.test(seen.line);
    for (let p = 1; p <= MAX_PERIOD; p++) {
      const before = this.history[this.history.length - p];
      this.runs[p - 1] = !progress && before !== undefined && repeats(before, seen) ? (this.runs[p - 1] ?? 0) + 1 : 0;
    }
    this.history.push(seen);
    if (this.history.length > MAX_PERIOD) this.history.shift();
  }
}

/** Same words, and every number either the same or one more (a count of the repeats, a second waited). */
function repeats(before: Seen, now: Seen): boolean {
  if (before.template !== now.template || before.numbers.length !== now.numbers.length) return false;
  return now.numbers.every((value, i) => {
    const step = value - (before.numbers[i] ?? value);
    return step === 0 || step === 1;
  });
}
