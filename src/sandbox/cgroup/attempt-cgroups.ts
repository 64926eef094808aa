import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cgroupKill, cgroupName, cgroupProcs, makeCgroup, removeCgroup, setPidsMax } from './cgroup.js';
import type { HostCapabilities, ResourceLimits, SandboxLimitHit } from '../types.js';

/**
 * The cgroups of one attempt: `<v2root>/<attempt>/cmd-<id>` per command (to list and kill each tree exactly), and one
 * cgroup v1 per controller shared by all its commands: `pids` (pids.max bounds the whole attempt), `memory`
 * (memory.limit_in_bytes), `cpu` (default shares: the attempt weighs as one process, however many it forks). Where no v1
 * hierarchy holds a controller (a pure v2 host), the same limits go on `<v2root>/<attempt>`, which every cmd-<id> is under.
 */
export class AttemptCgroups {
  /** the directory name of every cgroup of this attempt, in each hierarchy. */
  readonly name: string;
  /** null when the host (or a forced fallback) kills by process group + scan. */
  readonly v2: string | null;
  readonly pids: string | null;
  readonly memory: string | null;
  readonly cpu: string | null;
  /** `<v2root>/<attempt>` when it carries the v2 pids and memory limits, for their counters. */
  readonly #v2Pids: string | null;
  readonly #v2Memory: string | null;
  readonly #limits: ResourceLimits;
  readonly #commands: string[] = [];

  private constructor(
    name: string,
    v2: string | null,
    v1: { pids: string | null; memory: string | null; cpu: string | null },
    limits: ResourceLimits,
    caps: HostCapabilities,
  ) {
    this.name = name;
    this.v2 = v2;
    this.pids = v1.pids;
    this.memory = v1.memory;
    this.cpu = v1.cpu;
    this.#v2Pids = caps.cgroupLimits.pids === 'v2' ? v2 : null;
    this.#v2Memory = caps.cgroupLimits.memory === 'v2' ? v2 : null;
    this.#limits = limits;
  }

  static create(caps: HostCapabilities, attemptId: string, limits: ResourceLimits): AttemptCgroups {
    const name = cgroupName(attemptId);
    const under = (root: string | null | undefined): string | null =>
      root === null || root === undefined ? null : join(root, name);
    const v2 = caps.mechanism === 'cgroup-v2' ? under(caps.cgroupRoot) : null;
    const v1 = {
      pids: caps.processLimit === 'pids-cgroup' ? under(caps.pidsCgroupRoot) : null,
      memory: under(caps.memoryCgroupRoot),
      cpu: under(caps.cpuCgroupRoot),
    };
    try {
      for (const dir of [v2, v1.pids, v1.memory, v1.cpu]) if (dir !== null) makeCgroup(dir);
      if (v1.pids !== null) setPidsMax(v1.pids, limits.processes);
      if (v1.memory !== null) writeFileSync(join(v1.memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      if (v1.cpu !== null) setCpuPriority(v1.cpu, 'v1', limits);
      if (v2 !== null) setV2Limits(v2, caps, limits);
    } catch (error) {
      for (const dir of [v2, v1.pids, v1.memory, v1.cpu]) if (dir !== null && existsSync(dir)) rmdirSync(dir);
      throw error;
    }
    return new AttemptCgroups(name, v2, v1, limits, caps);
  }

  /** The cgroup v1 `cgroup.procs` files every command of the attempt joins. */
  sharedProcsFiles(): string[] {
    return [this.pids, this.memory, this.cpu]
      .filter((dir): dir is string => dir !== null)
      .map((dir) => join(dir, 'cgroup.procs'));
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

  /** Which sandbox limits refused the attempt something so far; read before remove(). */
  limitHits(): SandboxLimitHit[] {
    const hits: SandboxLimitHit[] = [];
    const pidsEvents = this.pids ?? this.#v2Pids;
    const processes = pidsEvents === null ? 0 : counter(join(pidsEvents, 'pids.events'), 'max');
    if (processes > 0) hits.push({ kind: 'processes', limit: this.#limits.processes, hits: processes });
    const oomFile =
      this.memory !== null
        ? join(this.memory, 'memory.oom_control')
        : this.#v2Memory !== null
          ? join(this.#v2Memory, 'memory.events')
          : null;
    const oomKills = oomFile === null ? 0 : counter(oomFile, 'oom_kill');
    if (oomKills > 0) hits.push({ kind: 'memory', limit: this.#limits.memoryBytes, hits: oomKills });
    return hits;
  }

  /**
   * Resolves once every process of the attempt is reaped, or after timeoutMs. Zombies still count against pids.max,
   * and a slow init reaps orphans late (about 1.5 s on some hosts): verify would find fork refused.
   */
  async released(timeoutMs: number): Promise<boolean> {
    const pids = this.pids ?? this.#v2Pids;
    if (pids === null) return true;
    const deadline = performance.now() + timeoutMs;
    while (Number(readOr(join(pids, 'pids.current'), '0')) > 0) {
      if (performance.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return true;
  }

  /** Kills what is left in them and removes them, children before parents (rmdir refuses a parent). */
  async remove(timeoutMs: number): Promise<void> {
    for (const dir of [...this.#commands, this.v2, this.pids, this.memory, this.cpu]) {
      if (dir === null) continue;
      if (cgroupProcs(dir).length > 0) cgroupKill(dir);
      await removeCgroup(dir, timeoutMs);
    }
  }
}

/** The v2 limits of a pure v2 host, on the attempt's own cgroup (the probe enabled these controllers for it). */
function setV2Limits(dir: string, caps: HostCapabilities, limits: ResourceLimits): void {
  if (caps.cgroupLimits.pids === 'v2') setPidsMax(dir, limits.processes);
  if (caps.cgroupLimits.memory === 'v2') {
    writeFileSync(join(dir, 'memory.max'), String(limits.memoryBytes));
    // Without this the limit only moves the attempt's memory to swap; absent when the kernel has no swap accounting.
    if (existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0');
  }
  if (caps.cgroupLimits.cpu === 'v2') {
    writeFileSync(join(dir, 'cpu.weight'), '100');
    setCpuPriority(dir, 'v2', limits);
  }
}

/**
 * 'group-low': the attempt's cpu group at the lowest weight (v1 cpu.shares 2, v2 cpu.weight 1); 'group-idle': cpu.idle 1
 * (the group is scheduled as SCHED_IDLE against its siblings), where the kernel has the file. Root-owned files: nothing
 * inside the sandbox can write them back.
 */
function setCpuPriority(dir: string, version: 'v1' | 'v2', limits: ResourceLimits): void {
  if (limits.cpuPriority === 'group-low')
    writeFileSync(join(dir, version === 'v1' ? 'cpu.shares' : 'cpu.weight'), version === 'v1' ? '2' : '1');
  if (limits.cpuPriority === 'group-idle' && existsSync(join(dir, 'cpu.idle')))
    writeFileSync(join(dir, 'cpu.idle'), '1');
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/** The value of `name` in a flat-keyed cgroup file ("max 3\n"), 0 when absent. */
function counter(file: string, name: string): number {
  const line = readOr(file, '')
    .split('\n')
    .find((entry) => entry.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1)) || 0;
}
