export type { AttemptInfo, Reporter, ReporterFailure, ReporterHook, RunInfo, TickEvent } from '../run/index.js';
export type { ReporterContext, ReporterFactory, ReportStream } from './reporter-context.js';

/** Whether the progress line should be live: a TTY, and not CI. */
export function isLive(
  stream: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  return stream.isTTY === true && !ci;
}
