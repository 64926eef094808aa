import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { cgroupKill, cgroupName, cgroupProcs, makeCgroup, removeCgroup, setPidsMax } from './cgroup.js';
import type { HostCapabilities, ResourceLimits } from './types.js';

/**
 * The cgroups of one attempt: `<v2root>/<attempt>/cmd-<id>` per command (to list and kill each tree exactly) and
 * `<pidsroot>/<attempt>` shared by all its commands (pids.max bounds the whole attempt).
 */
export class AttemptCgroups {
  /** null when the host (or a forced fallback) kills by process group + scan. */
  readonly v2: string | null;
  readonly pids: string | null;
  readonly #commands: string[] = [];

  private constructor(v2: string | null, pids: string | null) {
    this.v2 = v2;
    this.pids = pids;
  }

  static create(caps: HostCapabilities, attemptId: string, limits: ResourceLimits): AttemptCgroups {
    const name = cgroupName(attemptId);
    const v2 = caps.mechanism === 'cgroup-v2' && caps.cgroupRoot !== null ? join(caps.cgroupRoot, name) : null;
    const pids = caps.processLimit === 'pids-cgroup' && caps.pidsCgroupRoot !== null ? join(caps.pidsCgroupRoot, name) : null;
    try {
      if (v2 !== null) makeCgroup(v2);
      if (pids !== null) {
        makeCgroup(pids);
        setPidsMax(pids, limits.processes);
      }
    } catch (error) {
      for (const dir of [v2, pids]) if (dir !== null && existsSync(dir)) rmdirSync(dir);
      throw error;
    }
    return new AttemptCgroups(v2, pids);
  }

  /** A fresh cgroup per spawn, even when a commandId comes again: a reused one could hold a leftover. */
  forCommand(commandId: number): string | null {
    if (this.v2 === null) return null;
    for (let n = 1; ; n++) {
      const dir = join(this.v2, n === 1 ? `cmd-${commandId}` : `cmd-${commandId}-${n}`);
      if (existsSync(dir)) continue;
      mkdirSync(dir);
      this.#commands.push(dir);
      return dir;
    }
  }

  /** Kills what is left in them and removes them, children before parents (rmdir refuses a parent). */
  async remove(timeoutMs: number): Promise<void> {
    for (const dir of [...this.#commands, this.v2, this.pids]) {
      if (dir === null) continue;
      if (cgroupProcs(dir).length > 0) cgroupKill(dir);
      await removeCgroup(dir, timeoutMs);
    }
  }
}
