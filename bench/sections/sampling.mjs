// Sampling cost per process at 1, 10 and 50 processes: kept descriptors + pread (hangbench), open/read/close per
// sample (hangbench without its kept descriptors, i.e. before issue 11), spawning ps, and the pidusage package.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pidusage from 'pidusage';
import { Bench } from 'tinybench';
import { releaseSample, sampleTree } from '../../dist/monitor/sample/sample-tree.js';
import { sized } from '../lib/smoke.mjs';
import { markdownTable, us } from '../lib/stats.mjs';

const SIZES = [1, 10, 50];

function sleepers(count, program = ['sleep', '600']) {
  const children = Array.from({ length: count }, () =>
    spawn(program[0], program.slice(1), { stdio: ['pipe', 'ignore', 'ignore'] }),
  );
  return { pids: children.map((child) => child.pid), stop: () => children.forEach((child) => child.kill('SIGKILL')) };
}

function pipePairs(count) {
  const children = Array.from({ length: count }, () =>
    spawn('bash', ['-c', 'exec cat < <(exec sleep 600)'], { stdio: 'ignore' }),
  );
  return { pids: children.map((child) => child.pid), stop: () => children.forEach((child) => child.kill('SIGKILL')) };
}

function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export default async function sampling() {
  const bench = new Bench({
    time: sized(1500, 50),
    iterations: sized(64, 4),
    warmup: true,
    warmupIterations: sized(16, 1),
  });
  const groups = new Map(SIZES.map((size) => [size, sleepers(size)]));
  // cat blocked reading a pipe whose writer is its child sleep (`cat < <(sleep 600)`): half the processes of each
  // group are readers, half writers, and every sample follows each reader's pipe to its writer.
  const readers = new Map(SIZES.map((size) => [size, pipePairs(Math.max(1, size / 2))]));
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Writers first: the first pid is taken as the tree's root, and a root reading its own stdin would be a stdin wait.
  for (const group of readers.values()) group.pids.unshift(...group.pids.flatMap(childrenOf));
  for (const [size, { pids }] of readers) {
    let withRelations = null;
    let without = null;
    bench.add(`blocked readers, relations on/${size}`, () => {
      withRelations = sampleTree(pids, withRelations, 'pipe', { relations: true });
    });
    bench.add(`blocked readers, relations off/${size}`, () => {
      without = sampleTree(pids, without, 'pipe', { relations: false });
    });
  }
  for (const [size, { pids }] of groups) {
    let previous = null;
    bench.add(`kept fds + pread/${size}`, () => {
      previous = sampleTree(pids, previous);
    });
    bench.add(`open/read/close/${size}`, () => releaseSample(sampleTree(pids, null)));
    bench.add(`ps/${size}`, () => {
      execFileSync('ps', ['-o', 'pid,ppid,pgid,stat,wchan:32,pcpu,rss,nlwp,args', '-p', pids.join(',')]);
    });
    bench.add(`pidusage/${size}`, async () => {
      await pidusage(pids);
    });
  }
  await bench.run();
  pidusage.clear();
  for (const group of [...groups.values(), ...readers.values()]) group.stop();

  const perProcess = (name, size) => {
    const task = bench.tasks.find((candidate) => candidate.name === `${name}/${size}`);
    const latency = task?.result?.latency;
    // The pipe groups are reader + writer pairs: 1 → 2 processes.
    const count = name.startsWith('blocked readers') ? readers.get(size).pids.length : size;
    return latency
      ? {
          p50: (latency.p50 * 1000) / count,
          p99: (latency.p99 * 1000) / count,
          samples: latency.samples?.length ?? null,
        }
      : null;
  };
  const approaches = [
    [
      'kept fds + pread',
      'hangbench (stat, schedstat, io, wchan, syscall, cmdline kept open; details of a process that has not run reused)',
    ],
    [
      'blocked readers, relations on',
      'hangbench, half the processes cat blocked reading a pipe, half its writer sleep: wait-for relations on',
    ],
    ['blocked readers, relations off', 'the same processes, relations off (progress deltas still on)'],
    ['open/read/close', 'hangbench opening every file each sample (before issue 11)'],
    ['ps', 'spawn ps -o pid,ppid,pgid,stat,wchan,pcpu,rss,nlwp,args -p …'],
    ['pidusage', 'pidusage 4 (stat only: cpu, memory)'],
  ];
  const data = {};
  const rows = approaches.map(([name, what]) => {
    const cells = SIZES.map((size) => perProcess(name, size));
    data[name] = Object.fromEntries(SIZES.map((size, index) => [size, cells[index]]));
    return [what, ...cells.map((cell) => (cell ? `${us(cell.p50)} (p99 ${us(cell.p99)})` : '–'))];
  });
  const ours = perProcess('kept fds + pread', 50);
  const related = perProcess('blocked readers, relations on', 50);
  const unrelated = perProcess('blocked readers, relations off', 50);
  const ratios = ['open/read/close', 'ps', 'pidusage'].map(
    (name) => `${name} ${(perProcess(name, 50).p50 / ours.p50).toFixed(1)}×`,
  );
  return {
    title: 'Sampling: µs per process, p50 (p99), tinybench, one run',
    table: markdownTable(['approach', '1 process', '10 processes', '50 processes'], rows),
    notes: [
      `At 50 processes, each alternative costs this many times hangbench's kept-fd sample: ${ratios.join(', ')}.`,
      `Relations on / off at 50 processes (25 readers, 25 writers): ${(related.p50 / unrelated.p50).toFixed(2)}×.`,
      'Goal: ≤ 25 µs a process at 50, with the relations on.',
    ],
    data,
    goals: [
      { figure: 'sampling µs/process at 50 (p50)', value: ours.p50, goal: 25, met: ours.p50 <= 25 },
      {
        figure: 'sampling µs/process at 50, pipe readers and writers, relations on (p50)',
        value: related.p50,
        goal: 25,
        met: related.p50 <= 25,
      },
    ],
  };
}
