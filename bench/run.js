// hangbench benchmarks: in-process figures with tinybench, whole-process figures measured side by side.
// Run: npm run bench   (builds first). Prints percentiles and ratios; asserts nothing.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Bench } from 'tinybench';
import { OutputWindow, sampleTree } from '../dist/monitor/index.js';
import { createSandbox, probeHost } from '../dist/sandbox/index.js';

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

async function sleepers(count) {
  const children = Array.from({ length: count }, () => spawn('sleep', ['60'], { stdio: 'ignore' }));
  return { pids: children.map((child) => child.pid), stop: () => children.forEach((child) => child.kill('SIGKILL')) };
}

async function samplingBench() {
  const bench = new Bench({ time: 1000 });
  const groups = [];
  for (const size of [1, 10, 50]) {
    const group = await sleepers(size);
    groups.push(group);
    let previous = null;
    bench.add(`sampleTree ${size} proc`, () => {
      previous = sampleTree(group.pids, previous);
    });
  }
  const window = new OutputWindow();
  const chunk = Buffer.alloc(64 * 1024, 'y\n');
  bench.add('OutputWindow push 64 KiB', () => window.push(chunk));
  await bench.run();
  groups.forEach((group) => group.stop());
  console.log('\n## In-process (tinybench, latency per call)');
  console.log('| task | p50 | p99 | samples |');
  console.log('|---|---|---|---|');
  for (const task of bench.tasks) {
    const latency = task.result?.latency;
    console.log(`| ${task.name} | ${fmt(latency.p50)} | ${fmt(latency.p99)} | ${latency.samples?.length ?? task.result?.samples?.length ?? '?'} |`);
  }
  const push = bench.tasks.find((task) => task.name.startsWith('OutputWindow'));
  console.log(`OutputWindow throughput: ${((64 / 1024) / (push.result.latency.mean / 1000)).toFixed(0)} MiB/s (p50 chunk ${fmt(push.result.latency.p50)})`);
}

/** Kill of a tree with a setsid grandchild, a TERM-ignoring child and a stopped child, per mechanism, side by side. */
async function killBench(trials) {
  const capabilities = await probeHost();
  const workspace = await mkdtemp(path.join(tmpdir(), 'hangbench-bench-ws-'));
  await mkdir(workspace, { recursive: true });
  await writeFile(path.join(workspace, 'README'), 'bench\n');
  const tree =
    "setsid sleep 60 & python3 -c 'import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)' & " +
    "(sleep 60) & kill -STOP $!; sleep 0.3; echo ready; wait";
  const mechanisms = [capabilities];
  if (capabilities.mechanism === 'cgroup-v2') mechanisms.push({ ...capabilities, mechanism: 'process-group+scan', cgroupRoot: null });
  const results = [];
  for (const caps of mechanisms) {
    for (const firstSignal of ['SIGINT', 'SIGKILL']) {
      const gone = [];
      for (let trial = 0; trial < trials; trial += 1) {
        const sandbox = await createSandbox({ attemptId: `bench-${process.pid}-${trial}`, workspaceSource: workspace, timeScale: 1, capabilities: caps });
        const proc = sandbox.spawn(tree, { commandId: 1 });
        await new Promise((resolve) => proc.stdout.once('data', resolve));
        proc.stderr.resume();
        proc.stdout.resume();
        const record = await proc.kill('harness', 'bench', firstSignal);
        await proc.exited;
        if (record.goneMs !== null) gone.push(record.goneMs);
        await sandbox.leakScan();
        await sandbox.dispose();
      }
      results.push({ mechanism: caps.mechanism, firstSignal, p50: quantile(gone, 0.5), p90: quantile(gone, 0.9), n: gone.length });
    }
  }
  console.log(`\n## Kill: decision → every process gone (tree of 4 with setsid, TERM-ignoring and stopped children; ${trials} trials each)`);
  console.log('| mechanism | first signal | p50 | p90 | n |');
  console.log('|---|---|---|---|---|');
  for (const row of results) console.log(`| ${row.mechanism} | ${row.firstSignal} | ${fmt(row.p50)} | ${fmt(row.p90)} | ${row.n} |`);
  const direct = results.filter((row) => row.firstSignal === 'SIGKILL');
  if (direct.length === 2) console.log(`SIGKILL-first ratio, fallback / cgroup-v2 at p50: ${(direct[1].p50 / direct[0].p50).toFixed(1)}×`);
}

console.log(`hangbench bench — node ${process.version}, ${process.platform}`);
await samplingBench();
await killBench(Number(process.env.BENCH_TRIALS ?? 20));
