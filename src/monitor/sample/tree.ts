import type { ProcessSample } from '../../types/process.js';

/** Shape queries over a sampled tree: who is a leaf, how deep, who waits for whom. */

/** Processes whose children (if any) were not sampled, deepest first: where a hang usually lives. */
export function leavesDeepestFirst(processes: readonly ProcessSample[]): ProcessSample[] {
  const depths = depthsOf(processes);
  return processes
    .filter((process) => process.children.length === 0)
    .sort((a, b) => (depths.get(b.pid) ?? 0) - (depths.get(a.pid) ?? 0));
}

/** Depth below the topmost sampled ancestor (0 for the root and for orphans re-parented away). */
export function depthsOf(processes: readonly ProcessSample[]): Map<number, number> {
  const byPid = new Map(processes.map((process) => [process.pid, process]));
  const depths = new Map<number, number>();
  const depth = (process: ProcessSample, guard: number): number => {
    const known = depths.get(process.pid);
    if (known !== undefined) return known;
    const parent = byPid.get(process.ppid);
    const value = parent && guard < byPid.size ? depth(parent, guard + 1) + 1 : 0;
    depths.set(process.pid, value);
    return value;
  };
  for (const process of processes) depth(process, 0);
  return depths;
}

export function parentOf(processes: readonly ProcessSample[], child: ProcessSample): ProcessSample | undefined {
  return processes.find((process) => process.pid === child.ppid);
}
