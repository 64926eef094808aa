// Process trees that are hard to kill, and a /proc watcher that tells when every process of one is gone.
import { readdirSync, readFileSync } from 'node:fs';

/** Each prints "ready" once every process exists. */
export const TREES = {
  'one process': 'echo ready; exec sleep 600',
  '20-process tree': 'for i in $(seq 19); do sleep 600 & done; echo ready; wait',
  'setsid escapee': 'setsid sleep 600 & sleep 600 & sleep 0.1; echo ready; wait',
  'SIGTERM-ignorer': "trap '' TERM; sleep 600 & echo ready; wait",
};

/** Live (not zombie) pids whose environment carries HANGBENCH_ATTEMPT=<marker>. */
export function markedPids(marker) {
  const needle = `HANGBENCH_ATTEMPT=${marker}\0`;
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(needle) && alive(Number(name)))
        found.push(Number(name));
    } catch {
      // gone or not ours to read
    }
  }
  return found;
}

/** A zombie counts as gone: it runs nothing and only waits to be reaped. */
export function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/** ms from `decidedAt` until none of `pids` is alive, polling every millisecond; null if some outlive `windowMs`. */
export async function goneAfter(pids, decidedAt, windowMs) {
  let remaining = pids;
  while (performance.now() - decidedAt < windowMs) {
    remaining = remaining.filter(alive);
    if (remaining.length === 0) return performance.now() - decidedAt;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return null;
}

export function killAll(pids) {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
