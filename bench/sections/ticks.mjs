// Tick lateness against the schedule at 1, 16 and 32 attempts at once, two of them spinning a core each, in a real
// `hangbench eval` process; then, side by side, each CPU-priority lever for the fixtures (HANGBENCH_CPU_PRIORITY) at 32
// attempts, quiet and with two busy loops beside the run, each beside the floor: a bare Node timer scheduled the same
// way in this process, with two busy loops placed as that lever places the fixtures.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, getPriority, setPriority } from 'node:os';
import path from 'node:path';
import { probeHost } from '../../dist/sandbox/index.js';
import { DEFAULTS } from '../../dist/defaults.js';
import { benchCase, caseCopies, runHarness, scratchDir, traceEvents } from '../lib/harness.mjs';
import { sized } from '../lib/smoke.mjs';
import { markdownTable, ms, quantile, sleep } from '../lib/stats.mjs';

const INTERVAL_MS = 250;
const LOADS = sized([1, 16, 32], [2]);
const MOST = Math.max(...LOADS);
const LEVERS = sized(['nice', 'batch', 'idle', 'group-low', 'group-idle'], ['nice', 'idle']);

/**
 * Lateness of each tick against its deadline: the schedule's position (`dueMs`, start + n·interval on the command's
 * CPU-available clock, never chained) moved by what the load took from the command (`cpuWaitMs`). Negative = early
 * (a Node timer may fire up to 1 ms early: libuv counts whole milliseconds).
 */
function latenesses(runEvents) {
  const values = [];
  let skipped = 0;
  for (const events of runEvents) {
    let lastIndex = 0;
    for (const event of events) {
      if (event.type !== 'tick' || event.commandId !== 1 || event.dueMs === undefined) continue;
      const index = Math.round(event.dueMs / INTERVAL_MS);
      values.push(event.elapsedMs - event.dueMs - (event.cpuWaitMs ?? 0));
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

/** @param {number} attempts @param {{ loaded?: boolean, lever?: string, harnessNice?: number }} [options] */
async function harnessLoad(
  attempts,
  { loaded = false, lever = String(DEFAULTS.limits.cpuPriority), harnessNice = undefined } = {},
) {
  const dir = await scratchDir(
    `ticks-${attempts}${loaded ? '-loaded' : ''}-${lever}${harnessNice === undefined ? '' : `-harness${harnessNice}`}`,
  );
  const env = {
    HANGBENCH_CPU_PRIORITY: lever,
    ...(harnessNice === undefined ? {} : { HANGBENCH_HARNESS_NICE: String(harnessNice) }),
  };
  const busy = Math.min(2, attempts - 1);
  const files = attempts === 1 ? [benchCase('idle')] : await caseCopies(dir, { idle: attempts - busy, busy });
  const stopLoad = loaded ? outsideLoad() : () => undefined;
  const { runDir, wallMs, cpuSeconds } = await runHarness(
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
    { out: `${dir}/out`, env },
  ).finally(stopLoad);
  return { ...latenesses(await traceEvents(runDir)), busy, wallMs, cpuSeconds };
}

/**
 * Where the floor's busy loops run for a lever: the prefix a fixture's command gets, and for the group levers a cpu
 * cgroup beside the attempts' (under the probe's cpu root) set as an attempt's would be; null where there is none.
 */
function floorPlacement(lever, cpuRoot) {
  const nice = ['nice', '-n', '10'];
  if (lever === 'batch') return { prefix: ['chrt', '--batch', '0', ...nice], cgroup: null };
  if (lever === 'idle') return { prefix: ['chrt', '--idle', '0', ...nice], cgroup: null };
  if (lever === 'nice') return { prefix: nice, cgroup: null };
  if (cpuRoot === null) return null;
  const file = lever === 'group-low' ? 'cpu.shares' : 'cpu.idle';
  const dir = path.join(cpuRoot, `bench-floor-${process.pid}-${lever}`);
  mkdirSync(dir);
  if (!existsSync(path.join(dir, file))) {
    rmdirSync(dir);
    return null;
  }
  writeFileSync(path.join(dir, file), lever === 'group-low' ? '2' : '1');
  return { prefix: nice, cgroup: dir };
}

/** The floor: a bare timer in this process, re-armed from absolute deadlines, while two busy loops run. */
async function bareTimer(durationMs, placement) {
  const join = placement.cgroup === null ? '' : `echo $$ > ${placement.cgroup}/cgroup.procs && `;
  const loops = Array.from({ length: 2 }, () =>
    spawn('bash', ['-c', `${join}exec ${placement.prefix.join(' ')} bash -c 'while :; do :; done'`], {
      stdio: 'ignore',
    }),
  );
  await sleep(200);
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
  await sleep(200);
  if (placement.cgroup !== null) rmdirSync(placement.cgroup);
  return values;
}

const summary = (values) => ({ p50: quantile(values, 0.5), p99: quantile(values, 0.99), ticks: values.length });

/** The lever on the harness instead of its fixtures: HANGBENCH_HARNESS_NICE, which needs root. */
const HARNESS_NICE = -5;

/** One lever's row: its floor, then 32 attempts quiet and beside outside load. */
async function leverRow(lever, placement, { label, harnessNice = undefined }) {
  const floor = placement === null ? null : summary(await bareTimer(sized(10_000, 2_000), placement));
  const quiet = await harnessLoad(MOST, { lever, harnessNice });
  const loaded = await harnessLoad(MOST, { lever, harnessNice, loaded: true });
  const row = {
    lever,
    ...(harnessNice === undefined ? {} : { harnessNice }),
    floor,
    quiet: { ...summary(quiet.values), skipped: quiet.skipped },
    loaded: { ...summary(loaded.values), skipped: loaded.skipped },
  };
  const cell = (result) => `${ms(result.p50)} / ${ms(result.p99)}`;
  const line = [
    label,
    floor === null ? '– (no cpu cgroup)' : cell(floor),
    `${cell(row.quiet)} (${row.quiet.skipped} skipped)`,
    `${cell(row.loaded)} (${row.loaded.skipped} skipped)`,
    `${quiet.cpuSeconds.toFixed(1)} s / ${loaded.cpuSeconds.toFixed(1)} s`,
  ];
  return { row, line };
}

/** The floor of the harness lever: this process's timer at HARNESS_NICE, the busy loops put back at nice 0. */
async function harnessNiceRow() {
  const before = getPriority();
  setPriority(HARNESS_NICE);
  const placement = { prefix: ['nice', '-n', String(-HARNESS_NICE)], cgroup: null };
  const floor = summary(await bareTimer(sized(10_000, 2_000), placement)).p99;
  setPriority(before);
  return floor;
}

async function leverRows(cpuRoot) {
  const rows = [];
  const data = [];
  for (const lever of LEVERS) {
    const label = `\`${lever}\`${lever === DEFAULTS.limits.cpuPriority ? ' (default)' : ''}`;
    const { row, line } = await leverRow(lever, floorPlacement(lever, cpuRoot), { label });
    data.push(row);
    rows.push(line);
  }
  // Root only: lowering a nice value needs CAP_SYS_NICE. The harness at nice -5, its fixtures at the default lever.
  if (process.getuid?.() === 0) {
    const lever = String(DEFAULTS.limits.cpuPriority);
    const label = `\`${lever}\` + \`HANGBENCH_HARNESS_NICE=${HARNESS_NICE}\` (the harness raised)`;
    const { row, line } = await leverRow(lever, null, { label, harnessNice: HARNESS_NICE });
    const floorP99 = await harnessNiceRow();
    line[1] = `timer at nice ${HARNESS_NICE}: p99 ${ms(floorP99)}`;
    data.push({ ...row, floorP99 });
    rows.push(line);
  }
  return { rows, data };
}

export default async function ticks() {
  const rows = [];
  const data = [];
  for (const attempts of LOADS) {
    const result = await harnessLoad(attempts);
    const row = { load: attempts, busy: result.busy, ...summary(result.values), skipped: result.skipped };
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
  const caps = await probeHost();
  const levers = await leverRows(caps.cpuCgroupRoot ?? null);
  const chosen = levers.data.find((row) => row.lever === DEFAULTS.limits.cpuPriority) ?? levers.data[0];
  const atMost = data.find((row) => row.load === MOST) ?? { p99: NaN };
  return {
    title: `Tick lateness against the deadline schedule (interval ${INTERVAL_MS} ms, 12 s attempts)`,
    table: [
      markdownTable(['load', 'busy loops among them', 'p50', 'p99', 'ticks', 'deadlines skipped'], rows),
      '',
      `Each lever for the fixtures (\`HANGBENCH_CPU_PRIORITY\`; default \`${DEFAULTS.limits.cpuPriority}\`), ${MOST} attempts at once, p50 / p99:`,
      '',
      markdownTable(
        [
          'lever',
          'floor: bare timer beside 2 busy loops placed so',
          `${MOST} attempts, quiet`,
          `${MOST} attempts, ${availableParallelism()} busy loops beside the run (nice 0)`,
          'harness CPU (quiet / loaded)',
        ],
        levers.rows,
      ),
    ].join('\n'),
    notes: [
      `cpu cgroup of the attempts: ${caps.cpuCgroupRoot ?? 'none'} (${caps.cgroupLimits.cpu ?? 'no cpu controller'}); the harness itself stays in its own cgroup at nice 0 (in the last row, where there is one, at nice ${HARNESS_NICE}).`,
      `Goal: p99 ≤ 10 ms at ${MOST} attempts, quiet and with outside load.`,
    ],
    data: { loads: data, levers: levers.data },
    goals: [
      { figure: `tick lateness p99 at ${MOST} attempts (ms)`, value: atMost.p99, goal: 10, met: atMost.p99 <= 10 },
      {
        figure: `tick lateness p99 at ${MOST} attempts, outside load (ms)`,
        value: chosen.loaded.p99,
        goal: 10,
        met: chosen.loaded.p99 <= 10,
      },
    ],
  };
}
