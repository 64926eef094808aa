import type { MonitorEvent } from '../types.js';

type TickOrExit = Extract<MonitorEvent, { type: 'tick' | 'exit' }>;

interface Waiter {
  resolve(event: TickOrExit): void;
  reject(reason: unknown): void;
  cleanup(): void;
}

/** Callers parked in `nextTickOrExit`, each released by the next tick or exit, or by its own abort signal. */
export function createWaiters() {
  const waiting = new Set<Waiter>();
  return {
    next(signal?: AbortSignal): Promise<TickOrExit> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<TickOrExit>((resolve, reject) => {
        const onAbort = (): void => {
          waiting.delete(waiter);
          reject(signal?.reason);
        };
        const waiter: Waiter = { resolve, reject, cleanup: () => signal?.removeEventListener('abort', onAbort) };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.add(waiter);
      });
    },
    settle(event: TickOrExit): void {
      for (const waiter of drain()) waiter.resolve(event);
    },
    fail(reason: unknown): void {
      for (const waiter of drain()) waiter.reject(reason);
    },
  };

  function drain(): Waiter[] {
    const all = [...waiting];
    waiting.clear();
    for (const waiter of all) waiter.cleanup();
    return all;
  }
}
