import type { RunSummary } from '../summary/index.js';
import type { EventOf } from '../types/events.js';
import type { AttemptScores } from '../types/scores.js';

/** The hooks a run calls as it goes; the CLI's reporters (report/) implement them. */
export interface RunInfo {
  readonly runId: string;
  readonly startedAt: string;
  /** attempts planned for this run (after sharding and resume). */
  readonly attempts: number;
}

/** Which attempt a hook is about; an attempt.start event satisfies it. */
export type AttemptInfo = Pick<
  EventOf<'attempt.start'>,
  'attemptId' | 'caseId' | 'kind' | 'class' | 'variant' | 'agent' | 'repeat'
>;

export type TickEvent = EventOf<'tick'>;

/** A small hook object, in the style of vitest's reporters. Hooks may be async; every one is optional. */
export interface Reporter {
  readonly name: string;
  onRunStart?(info: RunInfo): void | Promise<void>;
  onAttemptStart?(attempt: AttemptInfo): void | Promise<void>;
  onTick?(attempt: AttemptInfo, tick: TickEvent): void | Promise<void>;
  onAttemptEnd?(attempt: AttemptInfo, scores: AttemptScores): void | Promise<void>;
  onRunEnd?(summary: RunSummary): void | Promise<void>;
}

export type ReporterHook = Exclude<keyof Reporter, 'name'>;

export interface ReporterFailure {
  readonly reporter: string;
  readonly hook: ReporterHook;
  readonly error: unknown;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}

type Args<H extends ReporterHook> = Parameters<NonNullable<Reporter[H]>>;

/**
 * One reporter that calls every reporter's hook in order. A hook that throws or rejects is handed to
 * `onError` and the others still run; the fan-out itself never throws, and its promise never rejects.
 */
export function fanOut(
  reporters: readonly Reporter[],
  onError: (failure: ReporterFailure) => void,
): Required<Reporter> {
  const record = (reporter: Reporter, hook: ReporterHook, error: unknown): void => {
    try {
      onError({ reporter: reporter.name, hook, error });
    } catch {
      // a broken error sink must not stop the run either
    }
  };
  const call =
    <H extends ReporterHook>(hook: H) =>
    (...args: Args<H>): void | Promise<void> => {
      const pending: Promise<void>[] = [];
      for (const reporter of reporters) {
        try {
          const fn = reporter[hook] as ((...a: Args<H>) => unknown) | undefined;
          const result = fn?.apply(reporter, args);
          if (isPromiseLike(result)) {
            pending.push(
              Promise.resolve(result).then(
                () => undefined,
                (error: unknown) => record(reporter, hook, error),
              ),
            );
          }
        } catch (error) {
          record(reporter, hook, error);
        }
      }
      return pending.length === 0 ? undefined : Promise.all(pending).then(() => undefined);
    };
  return {
    name: 'fan-out',
    onRunStart: call('onRunStart'),
    onAttemptStart: call('onAttemptStart'),
    onTick: call('onTick'),
    onAttemptEnd: call('onAttemptEnd'),
    onRunEnd: call('onRunEnd'),
  };
}
