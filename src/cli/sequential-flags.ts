import { DEFAULTS } from '../defaults.js';
import type { SequentialOptions } from '../run/index.js';
import { COMPARED_METRICS } from '../summary/index.js';
import { HangbenchError } from '../types/errors.js';
import type { FlagValues } from './flags/flag.js';
import type { EVAL_FLAGS } from './flags/eval-flags.js';

type SequentialValues = Pick<FlagValues<typeof EVAL_FLAGS>, 'repeat-until' | 'max-repeat' | 'metric'>;

/** `--repeat-until decided --max-repeat N [--metric a,b]` → the round loop's options; null without --repeat-until. */
export function sequentialFlags(values: SequentialValues): SequentialOptions | null {
  if (values['repeat-until'] === undefined) {
    for (const flag of ['max-repeat', 'metric'] as const)
      if (values[flag] !== undefined) throw new HangbenchError('USAGE', `--${flag} goes with --repeat-until decided`);
    return null;
  }
  const metrics = values.metric ?? [...DEFAULTS.sequentialMetrics];
  const known = COMPARED_METRICS.map((metric) => metric.metric as string);
  const unknown = metrics.filter((metric) => !known.includes(metric));
  if (unknown.length > 0)
    throw new HangbenchError('USAGE', `--metric ${unknown.join(', ')}: not a compared metric (${known.join(', ')})`);
  return { maxRepeat: values['max-repeat'] ?? DEFAULTS.maxRepeat, metrics };
}
