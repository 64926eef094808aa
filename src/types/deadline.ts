/** How a wait with a deadline ended: the awaited value, or the deadline first (the value is then abandoned). */
export type DeadlineResult<T> =
  | { readonly state: 'settled'; readonly value: T; readonly waitedMs: number }
  | { readonly state: 'expired'; readonly what: string; readonly waitedMs: number };

export interface DeadlineOptions {
  /** what is waited for, in words a record can carry ("the agent's stdout to close"). */
  readonly what: string;
  readonly ms: number;
  /** called once when the deadline passes, before the result resolves: escalate here (SIGKILL, destroy a socket). */
  readonly onExpire?: () => void | Promise<void>;
}

/**
 * Waits for `work` at most `ms`. Every wait on something outside the harness's control (a process's close, a socket,
 * a proxy, a CLI) goes through this, so a teardown cannot hang: on expiry it escalates and says what it gave up on.
 * A rejection of `work` rejects the result as it would have; one that comes after expiry is swallowed.
 */
export async function withDeadline<T>(work: Promise<T>, options: DeadlineOptions): Promise<DeadlineResult<T>> {
  const started = performance.now();
  const waited = (): number => Math.round(performance.now() - started);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), options.ms);
  });
  // no unhandled rejection when the deadline wins: a rejection that comes first is thrown by the race below
  work.catch(() => undefined);
  try {
    const first = await Promise.race([work.then((value) => ({ value })), expired]);
    if (first !== 'expired') return { state: 'settled', value: first.value, waitedMs: waited() };
    await options.onExpire?.();
    return { state: 'expired', what: options.what, waitedMs: waited() };
  } finally {
    clearTimeout(timer);
  }
}
