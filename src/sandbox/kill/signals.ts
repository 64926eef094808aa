import type { SignalName } from '../../types/process.js';

/** Sends a signal; a process that is already gone (ESRCH) or not ours (EPERM) is not an error here. */
export function sendSignal(pid: number, signal: SignalName): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Sends `signal` to each of `pids` (a tree's TERM, CONT and KILL passes). */
export function signalEach(pids: readonly number[], signal: SignalName): void {
  for (const pid of pids) sendSignal(pid, signal);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
