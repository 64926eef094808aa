// Sampling cost per process at 1, 10 and 50 processes: kept descriptors + pread (hangbench), open/read/close per
// sample (hangbench without its kept descriptors, i.e. before issue 11), spawning ps, and the pidusage package.
import { execFileSync, spawn } from 'node:child_process';
import pidusage from 'pidusage';
import { Bench } from 'tinybench';
import { releaseSample, sampleTree } from '../../dist/monitor/sample-tree.js';
import { sized } from '../lib/smoke.mjs';
import { markdownTable, us } from '../lib/stats.mjs';

const SIZES = [1, 10, 50];

function sleepers(count) {
  const children = Array.from({ length: count }, () => spawn('sleep', ['600'], { stdio: ['pipe', 'ignore', 'ignore'] }));
  return { pids: children.map((child) => child.pid ?? 0), stop: () => children.forEach((child) => child.kill('SIGKILL')) };
}

export default async function sampling() {
  const bench = new Bench({ time: sized(1500, 50), iterations: sized(64, 4), warmup: true, warmupIterations: sized(16, 1) });
  const groups = new Map(SIZES.map((size) => [size, sleepers(size)]));
  await new Promise((resolve) => setTimeout(resolve, 300));
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
  for (const group of groups.values()) group.stop();

  const perProcess = (name, size) => {
    const task = bench.tasks.find((candidate) => candidate.name === `${name}/${size}`);
    const latency = task?.result?.latency;
    return latency ? { p50: ((latency.p50 ?? NaN) * 1000) / size, p99: ((latency.p99 ?? NaN) * 1000) / size, samples: latency.samples?.length ?? null } : null;
  };
  const approaches = [
    ['kept fds + pread', 'hangbench (stat, schedstat, io, wchan, syscall, cmdline kept open; details of a process that has not run reused)'],
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
  const p50At50 = (name) => perProcess(name, 50)?.p50 ?? NaN;
  const ours = { p50: p50At50('kept fds + pread') };
  const ratios = ['open/read/close', 'ps', 'pidusage'].map((name) => `${name} ${(p50At50(name) / ours.p50).toFixed(1)}×`);
  return {
    title: 'Sampling: µs per process, p50 (p99), tinybench, one run',
    table: markdownTable(['approach', '1 process', '10 processes', '50 processes'], rows),
    notes: [`At 50 processes, each alternative costs this many times hangbench's kept-fd sample: ${ratios.join(', ')}.`, 'Goal: ≤ 25 µs a process at 50.'],
    data,
    goals: [{ figure: 'sampling µs/process at 50 (p50)', value: ours.p50, goal: 25, met: ours.p50 <= 25 }],
  };
}
