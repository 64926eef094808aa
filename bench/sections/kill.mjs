// Kill decision → last process gone, per tree and per mechanism, with what each leaves behind, side by side.
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { createSandbox, probeHost } from '../../dist/sandbox/index.js';
import { sized } from '../lib/smoke.mjs';
import { markdownTable, ms, quantile } from '../lib/stats.mjs';
import { goneAfter, killAll, markedPids, TREES } from '../lib/trees.mjs';

const WINDOW_MS = 1500;

/** @type {(stream: NodeJS.ReadableStream) => Promise<void>} */
const readyOf = (stream) =>
  new Promise((resolve, reject) => {
    let text = '';
    stream.on('data', (chunk) => {
      text += chunk;
      if (text.includes('ready')) resolve();
    });
    stream.on('end', () => reject(new Error(`tree ended before it was ready: ${text}`)));
  });

/** Each mechanism starts `tree` with the marker in its environment and returns {kill(), dispose()} once it is ready. */
function mechanisms(capabilities, workspace) {
  const hangbench = (firstSignal) => async (tree, marker) => {
    const sandbox = await createSandbox({ attemptId: marker, workspaceSource: workspace, timeScale: 1, capabilities });
    const proc = sandbox.spawn(tree, { commandId: 1 });
    proc.stderr.resume();
    await readyOf(proc.stdout);
    proc.stdout.resume();
    return {
      kill: () => proc.kill('harness', 'bench', firstSignal),
      dispose: async () => {
        await proc.exited;
        await sandbox.dispose();
      },
    };
  };
  return {
    [`hangbench ${capabilities.mechanism}, SIGKILL first`]: hangbench('SIGKILL'),
    [`hangbench ${capabilities.mechanism}, SIGINT→TERM→KILL (agent kill)`]: hangbench('SIGINT'),
    'kill(-pgid, SIGKILL)': async (tree, marker) => {
      const child = spawn('bash', ['-c', tree], {
        detached: true,
        stdio: ['pipe', 'pipe', 'ignore'],
        env: { ...process.env, HANGBENCH_ATTEMPT: marker },
      });
      await readyOf(child.stdout);
      return { kill: () => process.kill(-(child.pid ?? 0), 'SIGKILL'), dispose: async () => undefined };
    },
    'execa 9 timeout/cancel kill (SIGTERM, force after 5 s)': async (tree, marker) => {
      const controller = new AbortController();
      const child = execa('bash', ['-c', tree], {
        cancelSignal: controller.signal,
        env: { HANGBENCH_ATTEMPT: marker },
        reject: false,
        buffer: false,
      });
      await readyOf(child.stdout);
      return { kill: () => controller.abort(), dispose: () => child.then(() => undefined) };
    },
  };
}

export default async function kill({ trials = Number(process.env.BENCH_KILL_TRIALS ?? sized(12, 1)) } = {}) {
  const capabilities = await probeHost();
  const workspace = await mkdtemp(path.join(tmpdir(), 'hangbench-bench-kill-'));
  await writeFile(path.join(workspace, 'README'), 'bench\n');
  const rows = [];
  const data = [];
  for (const [mechanism, start] of Object.entries(mechanisms(capabilities, workspace))) {
    for (const [treeName, tree] of Object.entries(TREES)) {
      const gone = [];
      let leftBehind = 0;
      for (let trial = 0; trial < trials; trial += 1) {
        const marker = `bench-kill-${process.pid}-${rows.length}-${trial}`;
        const handle = await start(tree, marker);
        const pids = markedPids(marker);
        const decidedAt = performance.now();
        const killed = handle.kill();
        const goneMs = await goneAfter(pids, decidedAt, WINDOW_MS);
        const survivors = markedPids(marker);
        leftBehind += survivors.length;
        killAll(survivors);
        await Promise.resolve(killed).catch(() => undefined);
        await handle.dispose();
        if (goneMs !== null) gone.push(goneMs);
      }
      const row = {
        mechanism,
        tree: treeName,
        trials,
        allGone: gone.length,
        p50: quantile(gone, 0.5),
        p99: quantile(gone, 0.99),
        leftBehindPerTrial: leftBehind / trials,
      };
      data.push(row);
      rows.push([
        mechanism,
        treeName,
        ms(row.p50),
        ms(row.p99),
        `${row.allGone}/${trials}`,
        row.leftBehindPerTrial.toFixed(1),
      ]);
    }
  }
  const direct = data.filter((row) => row.mechanism.includes('SIGKILL first'));
  const worstP99 = Math.max(...direct.map((row) => row.p99 ?? Infinity));
  return {
    title: `Kill: decision → last process gone (${trials} trials per cell; "left" = processes alive ${WINDOW_MS} ms after the decision, per trial)`,
    table: markdownTable(['mechanism', 'tree', 'p50', 'p99', 'all gone', 'left'], rows),
    notes: [
      'p50/p99 over the trials in which every process was gone within the window. The hangbench rows are the sandbox the harness uses; pgid and execa run the same trees on the host.',
      `Goal: p99 ≤ 15 ms where SIGKILL is sent at once (hangbench SIGKILL first, worst tree: ${ms(worstP99)}).`,
    ],
    data,
    goals: [{ figure: 'kill p99, SIGKILL first, worst tree (ms)', value: worstP99, goal: 15, met: worstP99 <= 15 }],
  };
}
