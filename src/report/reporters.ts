import { HangbenchError } from '../types/errors.js';
import type { Reporter } from '../run/reporter-hooks.js';
import { createProgressReporter } from './progress.js';
import type { ReporterContext, ReporterFactory } from './reporter-context.js';

export type { AttemptInfo, Reporter, ReporterFailure, ReporterHook, RunInfo, TickEvent } from '../run/reporter-hooks.js';
export type { ReporterContext, ReporterFactory, ReportStream } from './reporter-context.js';

/** Whether the progress line should be live: a TTY, and not CI. */
export function isLive(stream: { readonly isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  return stream.isTTY === true && !ci;
}

const registry = new Map<string, ReporterFactory>([['progress', createProgressReporter]]);

export function registerReporter(name: string, factory: ReporterFactory): void {
  if (registry.has(name)) throw new HangbenchError('USAGE', `a reporter named "${name}" is already registered`);
  registry.set(name, factory);
}

export function reporterNames(): string[] {
  return [...registry.keys()];
}

export function createReporters(names: readonly string[], context: ReporterContext): Reporter[] {
  return names.map((name) => {
    const factory = registry.get(name);
    if (!factory) {
      throw new HangbenchError('USAGE', `unknown reporter "${name}"; use one of: ${reporterNames().join(', ')}`);
    }
    return factory(context);
  });
}
