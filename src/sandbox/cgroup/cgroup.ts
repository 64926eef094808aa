import { mkdirSync, writeFileSync } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { POLL_MS } from '../kill/poll.js';
import { isLive, readProcFile } from '../../proc/index.js';
import { sleep } from '../kill/signals.js';
import { DEFAULTS } from '../../defaults.js';

/** Thin helpers over one cgroup directory (v2, or v1 for `pids`); both list members in `cgroup.procs`. */

/** Names a cgroup after an attempt id: ids may hold '/' or spaces; the suffix keeps concurrent or stale ones apart. */
export function cgroupName(attemptId: string): string {
  const safe = attemptId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return `${safe}-${Math.random().toString(16).slice(2, 8)}`;
}

export function makeCgroup(dir: string): void {
  mkdirSync(dir, { recursive: true });
}

/** Members of the cgroup (zombies included, as the kernel lists them); [] once it is gone. */
export function cgroupProcs(dir: string): number[] {
  return (readProcFile(join(dir, 'cgroup.procs')) ?? '')
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

export function liveCgroupProcs(dir: string): number[] {
  return cgroupProcs(dir).filter(isLive);
}

/** SIGKILLs every member, including ones forked while the kill runs (v2 only). */
export function cgroupKill(dir: string): boolean {
  try {
    writeFileSync(join(dir, 'cgroup.kill'), '1');
    return true;
  } catch {
    return false;
  }
}

export function setPidsMax(dir: string, max: number): void {
  writeFileSync(join(dir, 'pids.max'), String(max));
}

/** rmdir fails with EBUSY while a member is still exiting; retry until the deadline. */
export async function removeCgroup(dir: string, timeoutMs: number = DEFAULTS.killGraces.afterKillMs): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      await rmdir(dir);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return true;
      if (code !== 'EBUSY' || performance.now() >= deadline) return false;
    }
    await sleep(POLL_MS);
  }
}
