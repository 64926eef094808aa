import type { SignalName } from '../types/process.js';

/** Sends a signal; a process that is already gone (ESRCH) or not ours (EPERM) is not an error here. */
export function sendSignal(pid: number, signal: SignalName): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
