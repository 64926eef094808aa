import type { ProcessSample, WaitRelation } from '../../types/process.js';
import { waitedChildren } from './child-waits.js';

type Cycle = Extract<WaitRelation, { kind: 'cycle' }>;
type Via = Cycle['members'][number]['via'];

/**
 * A cycle in the wait-for graph across processes: each waits for the next, and the last for the first, so none can
 * move. Edges: a pipe's reader waits for its writers and a writer for its readers (pipe relations), a lock's waiter for
 * its holder (lock relations), and a parent in wait4 for the child it waits for (all of them for wait4(-1)). A FIFO
 * being opened names no process to wait for (nobody has it open), so it is no edge. The first cycle found, or null.
 */
export function findCycle(processes: readonly ProcessSample[], relations: readonly WaitRelation[]): Cycle | null {
  const edges = new Map<number, Array<{ to: number; via: Via }>>();
  const add = (from: number, to: number, via: Via): void => {
    if (from !== to) edges.set(from, [...(edges.get(from) ?? []), { to, via }]);
  };
  for (const relation of relations) {
    if (relation.kind === 'pipe')
      for (const other of relation.others)
        add(relation.pid, other.pid, relation.direction === 'read' ? 'pipe-read' : 'pipe-write');
    if (relation.kind === 'lock' && relation.holder) add(relation.pid, relation.holder.pid, 'lock');
  }
  const byPid = new Map(processes.map((process) => [process.pid, process]));
  for (const process of processes) for (const pid of waitedChildren(process, byPid)) add(process.pid, pid, 'child');
  for (const start of edges.keys()) {
    const found = walk(start, edges, [], new Set());
    if (found) return { kind: 'cycle', pid: found[0]!.pid, members: found };
  }
  return null;
}

/** Depth-first from `at` along `path`: the members of a cycle back to the path's start, or null. */
function walk(
  at: number,
  edges: ReadonlyMap<number, ReadonlyArray<{ to: number; via: Via }>>,
  path: Array<{ pid: number; via: Via }>,
  seen: Set<number>,
): Array<{ pid: number; via: Via }> | null {
  seen.add(at);
  for (const edge of edges.get(at) ?? []) {
    const here = [...path, { pid: at, via: edge.via }];
    if (edge.to === (path[0]?.pid ?? at) && here.length >= 2) return here;
    if (!seen.has(edge.to)) {
      const found = walk(edge.to, edges, here, seen);
      if (found) return found;
    }
  }
  return null;
}
