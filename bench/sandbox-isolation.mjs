// What bubblewrap costs: start-up of one sandboxed command with and without it (interleaved, one run), the
// once-per-attempt cost of starting the sandbox, and kill decision → last process gone, with and without it.
// Run: node bench/sandbox-isolation.mjs   (after a build; BENCH_TRIALS=N, default 50). Prints tables; asserts nothing.
// From bench/run.js: const { sandboxIsolationBench } = await import('./sandbox-isolation.mjs'); await sandboxIsolationBench({ trials });
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSandbox, probeHost } from '../dist/sandbox/index.js';

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};
const fmt = (ms) => (ms === undefined ? '–' : `${ms.toFixed(2)} ms`);
const stats = (values) => ({
  p50: quantile(values, 0.5),
  p90: quantile(values, 0.9),
  p99: quantile(values, 0.99),
  n: values.length,
});

/** Spawn → exit (stdout closed) of `true`, the cost every command of an attempt pays. */
async function startOne(sandbox, commandId) {
  const started = performance.now();
  const proc = sandbox.spawn('true', { commandId });
  proc.stdout.resume();
  proc.stderr.resume();
  await proc.exited;
  return performance.now() - started;
}

/** A tree with a setsid grandchild and a stopped child, killed with SIGKILL first: decision → every process gone. */
const TREE = 'setsid sleep 60 & (sleep 60) & kill -STOP $!; sleep 60 & echo ready; wait';

async function killOne(sandbox, commandId) {
  const proc = sandbox.spawn(TREE, { commandId });
  proc.stderr.resume();
  await new Promise((resolve) => proc.stdout.once('data', resolve));
  proc.stdout.resume();
  const record = await proc.kill('harness', 'bench', 'SIGKILL');
  await proc.exited;
  return record.goneMs;
}

export async function sandboxIsolationBench({ trials = 50 } = {}) {
  const host = await probeHost();
  const workspace = await mkdtemp(path.join(tmpdir(), 'hangbench-bench-iso-'));
  await writeFile(path.join(workspace, 'README'), 'bench\n');
  /** @type {Array<{ name: string, caps: typeof host }>} */
  const variants = [{ name: 'host-user', caps: { ...host, isolation: 'host-user' } }];
  if (host.isolation === 'bubblewrap') variants.push({ name: 'bubblewrap', caps: host });
  /** @type {() => Record<string, number[]>} */
  const perVariant = () => Object.fromEntries(variants.map((variant) => [variant.name, []]));
  const start = perVariant();
  const create = perVariant();
  const kill = perVariant();
  for (let trial = 0; trial < trials; trial += 1) {
    // Interleaved, so both see the same machine load.
    for (const variant of variants) {
      const made = performance.now();
      const sandbox = await createSandbox({
        attemptId: `bench-iso-${process.pid}-${variant.name}-${trial}`,
        workspaceSource: workspace,
        timeScale: 1,
        capabilities: variant.caps,
      });
      create[variant.name].push(performance.now() - made);
      start[variant.name].push(await startOne(sandbox, 1));
      start[variant.name].push(await startOne(sandbox, 2));
      const gone = await killOne(sandbox, 3);
      if (gone !== null) kill[variant.name].push(gone);
      await sandbox.leakScan();
      await sandbox.dispose();
    }
  }
  await rm(workspace, { recursive: true, force: true });
  /** @typedef {Record<string, ReturnType<typeof stats>>} PerVariant */
  /** @type {{ trials: number, startup: PerVariant, sandboxCreate: PerVariant, killSigkill: PerVariant }} */
  const results = {
    trials,
    startup: Object.fromEntries(variants.map((variant) => [variant.name, stats(start[variant.name])])),
    sandboxCreate: Object.fromEntries(variants.map((variant) => [variant.name, stats(create[variant.name])])),
    killSigkill: Object.fromEntries(variants.map((variant) => [variant.name, stats(kill[variant.name])])),
  };
  console.log(`\n## Isolation cost (${trials} trials, interleaved; host isolation: ${host.isolation})`);
  console.log('| what | host-user p50 | host-user p90 | bubblewrap p50 | bubblewrap p90 |');
  console.log('|---|---|---|---|---|');
  const row = (label, table) =>
    console.log(
      `| ${label} | ${fmt(table['host-user']?.p50)} | ${fmt(table['host-user']?.p90)} | ${fmt(table.bubblewrap?.p50)} | ${fmt(table.bubblewrap?.p90)} |`,
    );
  row('one command: spawn → exit of `true`', results.startup);
  row('sandbox start (once per attempt, + once for verify)', results.sandboxCreate);
  if (results.startup.bubblewrap) {
    console.log(
      `added per command by bubblewrap: p50 ${fmt(results.startup.bubblewrap.p50 - results.startup['host-user'].p50)}, p90 ${fmt(results.startup.bubblewrap.p90 - results.startup['host-user'].p90)}`,
    );
  }
  for (const [name, k] of Object.entries(results.killSigkill)) {
    console.log(
      `kill (SIGKILL first, ${host.mechanism}), ${name}, decision → last process gone: p50 ${fmt(k.p50)}, p90 ${fmt(k.p90)}, p99 ${fmt(k.p99)} (n ${k.n})`,
    );
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await sandboxIsolationBench({ trials: Number(process.env.BENCH_TRIALS ?? 50) })));
}
