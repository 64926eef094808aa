import type { ProcessSample } from '../../types/process.js';
import { SYSCALL_NR } from '../sample/syscall-names.js';
import { waitKind } from '../classify/wait-kind.js';
import { innerPid } from '../../proc/index.js';

const WAIT4 = SYSCALL_NR.wait4;

/**
 * The children a parent in a wait for a child waits for: the one wait4's first argument names (as the parent's PID
 * namespace numbers it), or every child for -1, 0 or waitid; [] when the process waits for no child.
 */
export function waitedChildren(process: ProcessSample, byPid: ReadonlyMap<number, ProcessSample>): number[] {
  if (waitKind(process) !== 'child-wait') return [];
  const call = process.syscall;
  const waitedFor = call !== null && call.nr === WAIT4 ? call.arg0 | 0 : -1;
  return process.children.filter((pid) => {
    const child = byPid.get(pid);
    return child !== undefined && (waitedFor <= 0 || (child.innerPid ?? innerPid(pid) ?? pid) === waitedFor);
  });
}
