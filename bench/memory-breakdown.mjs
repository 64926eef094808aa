// Where the harness's memory goes under load: node bench/memory-breakdown.mjs [idle attempts] [busy attempts]
// Runs runEval in this process over copies of bench/cases/idle.yaml and busy.yaml (12 s each, a tick every 250 ms)
// and prints the peak of each process.memoryUsage() component beside VmHWM.
import { readFileSync } from 'node:fs';
import { runEval } from '../dist/run/run-eval.js';
import { caseCopies, projectRoot, scratchDir } from './lib/harness.mjs';

const [idle = 30, busy = 2] = process.argv.slice(2).map(Number);
const dir = await scratchDir('memory');
await caseCopies(dir, { idle, busy });
const peak = {};
const timer = setInterval(() => {
  for (const [key, value] of Object.entries(process.memoryUsage())) peak[key] = Math.max(peak[key] ?? 0, value);
}, 100);
const started = performance.now();
await runEval({
  caseInputs: [dir],
  agent: 'baseline',
  hungTicks: 1_000_000,
  intervalMs: 250,
  out: `${dir}/out`,
  cwd: projectRoot,
});
clearInterval(timer);
const hwmKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
console.log(
  `${idle + busy} attempts in ${((performance.now() - started) / 1000).toFixed(1)} s: VmHWM ${mb(hwmKb * 1024)}; peaks: ${Object.entries(
    peak,
  )
    .map(([key, value]) => `${key} ${mb(value)}`)
    .join(', ')}`,
);
