// Tick lateness against the schedule at 1, 16 and 32 attempts at once, two of them spinning a core each, in a real
// `hangbench eval` process; beside it a bare Node timer scheduled the same way with the same two busy loops.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { benchCase, caseCopies, runHarness, scratchDir, traceEvents } from '../lib/harness.mjs';
import { sized } from '../lib/smoke.mjs';
import { markdownTable, ms, quantile, sleep } from '../lib/stats.mjs';

const INTERVAL_MS = 250;
const LOADS = sized([1, 16, 32], [2]);
const MOST = Math.max(...LOADS);

/**
 * Lateness of each tick against its deadline start + n·interval (deadlines are never chained): the nearest one, since
 * a Node timer may fire up to 1 ms early (libuv counts whole milliseconds). Negative = early.
 */
function latenesses(runEvents) {
  const values = [];
  let skipped = 0;
  for (const events of runEvents) {
    let lastIndex = 0;
    for (const event of events) {
      if (event.type !== 'tick' || event.commandId !== 1) continue;
      const index = Math.round(event.elapsedMs / INTERVAL_MS);
      values.push(event.elapsedMs - index * INTERVAL_MS);
      skipped += Math.max(0, index - lastIndex - 1);
      lastIndex = index;
    }
  }
  return { values, skipped };
}

/** Busy loops beside the run at normal priority, as other CI jobs on a shared machine are: one per core. */
function outsideLoad() {
  const loops = Array.from({ length: availableParallelism() }, () =>
    spawn('bash', ['-c', 'while :; do :; done'], { stdio: 'ignore' }),
  );
  return () => loops.forEach((loop) => loop.kill('SIGKILL'));
}

async function harnessLoad(attempts, loaded = false) {
  const dir = await scratchDir(`ticks-${attempts}${loaded ? '-loaded' : ''}`);
  const busy = Math.min(2, attempts - 1);
  const files = attempts === 1 ? [benchCase('idle')] : await caseCopies(dir, { idle: attempts - busy, busy });
  const stopLoad = loaded ? outsideLoad() : () => undefined;
  const { runDir, wallMs } = await runHarness(
    [
      ...files,
      '--agent',
      'baseline',
      '--hung-ticks',
      '100000',
      '--interval',
      `${INTERVAL_MS}ms`,
      '--concurrency',
      String(attempts),
    ],
    {
      out: `${dir}/out`,
    },
  ).finally(stopLoad);
  return { ...latenesses(await traceEvents(runDir)), busy, wallMs };
}

/** The floor: a bare timer in this process, re-armed from absolute deadlines, while two nice-10 busy loops run. */
async function bareTimer(durationMs) {
  const loops = Array.from({ length: 2 }, () =>
    spawn('nice', ['-n', '10', 'bash', '-c', 'while :; do :; done'], { stdio: 'ignore' }),
  );
  const values = [];
  const start = performance.now();
  let index = 0;
  await new Promise((resolve) => {
    const arm = () => {
      index += 1;
      setTimeout(
        () => {
          const now = performance.now();
          values.push(now - (start + index * INTERVAL_MS));
          index = Math.floor((now - start) / INTERVAL_MS);
          if (now - start < durationMs) arm();
          else resolve(undefined);
        },
        Math.max(0, start + index * INTERVAL_MS - performance.now()),
      );
    };
    arm();
  });
  loops.forEach((loop) => loop.kill('SIGKILL'));
  await sleep(100);
  return values;
}

export default async function ticks() {
  const rows = [];
  const data = [];
  const bare = await bareTimer(sized(10_000, 2_000));
  rows.push([
    'bare Node timer (this process), 2 busy loops at nice 10',
    '–',
    ms(quantile(bare, 0.5)),
    ms(quantile(bare, 0.99)),
    bare.length,
    0,
  ]);
  data.push({ load: 'bare timer', p50: quantile(bare, 0.5), p99: quantile(bare, 0.99), ticks: bare.length });
  for (const attempts of LOADS) {
    const result = await harnessLoad(attempts);
    const row = {
      load: attempts,
      busy: result.busy,
      p50: quantile(result.values, 0.5),
      p99: quantile(result.values, 0.99),
      ticks: result.values.length,
      skipped: result.skipped,
    };
    data.push(row);
    rows.push([
      `hangbench eval, ${attempts} attempt${attempts === 1 ? '' : 's'} at once`,
      result.busy,
      ms(row.p50),
      ms(row.p99),
      row.ticks,
      row.skipped,
    ]);
  }
  const loaded = await harnessLoad(MOST, true);
  const loadedRow = {
    load: `${MOST} + outside load`,
    busy: loaded.busy,
    p50: quantile(loaded.values, 0.5),
    p99: quantile(loaded.values, 0.99),
    ticks: loaded.values.length,
    skipped: loaded.skipped,
  };
  data.push(loadedRow);
  rows.push([
    `hangbench eval, ${MOST} attempts, ${availableParallelism()} busy loops beside the run (nice 0)`,
    loaded.busy,
    ms(loadedRow.p50),
    ms(loadedRow.p99),
    loadedRow.ticks,
    loadedRow.skipped,
  ]);
  const atMost = data.find((row) => row.load === MOST) ?? { p99: NaN };
  return {
    title: `Tick lateness against the deadline schedule (interval ${INTERVAL_MS} ms, 12 s attempts)`,
    table: markdownTable(['load', 'busy loops among them', 'p50', 'p99', 'ticks', 'deadlines skipped'], rows),
    notes: [`Goal: p99 ≤ 10 ms at ${MOST} attempts, quiet and with outside load.`],
    data,
    goals: [
      { figure: `tick lateness p99 at ${MOST} attempts (ms)`, value: atMost.p99, goal: 10, met: atMost.p99 <= 10 },
      {
        figure: `tick lateness p99 at ${MOST} attempts, outside load (ms)`,
        value: loadedRow.p99,
        goal: 10,
        met: loadedRow.p99 <= 10,
      },
    ],
  };
}
