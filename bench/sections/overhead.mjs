// Harness overhead: a suite of attempts whose programs sleep known times, run by `hangbench eval` with a baseline that
// never kills (it runs the program once and finishes at its exit; the oracle would run it twice, patched and not);
// wall ÷ the ideal schedule of those sleeps at the same concurrency, and the harness's CPU seconds per attempt.
import { benchCase, runHarness, scratchDir, traceEvents } from '../lib/harness.mjs';
import { sized } from '../lib/smoke.mjs';
import { markdownTable } from '../lib/stats.mjs';

const SLEEPS_S = sized([2, 4, 6, 8], [2, 4]);
const REPEAT = sized(6, 1);

/** Longest-first list scheduling onto `slots` (what an ideal scheduler does with known durations). */
function idealMakespan(durations, slots) {
  const finish = Array.from({ length: Math.min(slots, durations.length) }, () => 0);
  for (const duration of [...durations].sort((a, b) => b - a)) {
    const slot = finish.indexOf(Math.min(...finish));
    finish[slot] += duration;
  }
  return Math.max(...finish);
}

/** First attempt.start to last attempt.end, from the traces: the run without process start-up and case loading. */
function attemptSpanMs(runEvents) {
  let first = Infinity;
  let last = -Infinity;
  for (const events of runEvents) {
    const start = events.find((event) => event.type === 'attempt.start');
    const end = events.find((event) => event.type === 'attempt.end');
    if (!start || !end) continue;
    const startedAt = Date.parse(start.startedAt);
    first = Math.min(first, startedAt);
    last = Math.max(last, startedAt + end.wallMs);
  }
  return last - first;
}

export default async function overhead() {
  const durations = SLEEPS_S.flatMap((seconds) => Array.from({ length: REPEAT }, () => seconds * 1000));
  const rows = [];
  const data = [];
  for (const concurrency of [undefined, 4]) {
    const dir = await scratchDir('overhead');
    const args = [
      ...SLEEPS_S.map((seconds) => benchCase(`sleep-${seconds}s`)),
      '--agent',
      'baseline',
      '--hung-ticks',
      '1000000',
      '--repeat',
      String(REPEAT),
    ];
    if (concurrency !== undefined) args.push('--concurrency', String(concurrency));
    const run = await runHarness(args, { out: `${dir}/out` });
    const ideal = idealMakespan(durations, concurrency ?? durations.length);
    const span = attemptSpanMs(await traceEvents(run.runDir));
    const row = {
      concurrency: concurrency ?? 'default',
      attempts: durations.length,
      idealMs: ideal,
      processWallMs: run.wallMs,
      attemptSpanMs: span,
      processRatio: run.wallMs / ideal,
      spanRatio: span / ideal,
      cpuSecondsPerAttempt: run.cpuSeconds / durations.length,
    };
    data.push(row);
    rows.push([
      row.concurrency,
      row.attempts,
      `${(ideal / 1000).toFixed(1)} s`,
      `${(run.wallMs / 1000).toFixed(1)} s`,
      row.processRatio.toFixed(3),
      row.spanRatio.toFixed(3),
      `${(row.cpuSecondsPerAttempt * 1000).toFixed(0)} ms`,
    ]);
  }
  const byDefault = data[0];
  return {
    title: `Harness overhead: ${durations.length} attempts sleeping ${SLEEPS_S.join('/')} s (${REPEAT} each), baseline that never kills`,
    table: markdownTable(
      [
        'concurrency',
        'attempts',
        'ideal schedule',
        'process wall',
        'wall ÷ ideal',
        'attempt span ÷ ideal',
        'harness CPU / attempt',
      ],
      rows,
    ),
    notes: [
      'Ideal: the sleeps alone, longest first onto the concurrency. Process wall includes Node start-up, case loading and the host probe; the attempt span is first attempt start → last attempt end.',
      'Harness CPU: the hangbench process only (utime+stime from /proc, last read ≤ 250 ms before it exited), not its sandboxed programs.',
      'Goal: ≤ 1.05.',
    ],
    data,
    goals: [
      {
        figure: 'attempt span ÷ ideal, default concurrency',
        value: byDefault.spanRatio,
        goal: 1.05,
        met: byDefault.spanRatio <= 1.05,
      },
    ],
  };
}
