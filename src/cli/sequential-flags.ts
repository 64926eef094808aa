import { DEFAULTS } from '../defaults.js';
import type { SequentialOptions } from '../run/sequential.js';
import { COMPARED_METRICS } from '../summary/index.js';
import { HangbenchError } from '../types/errors.js';
import { listFlag, numberFlag, type ParsedArgs } from './args.js';

/** `--repeat-until decided --max-repeat N [--metric a,b]` → the round loop's options; null without --repeat-until. */
export function sequentialFlags(parsed: ParsedArgs): SequentialOptions | null {
  const until = parsed.string('repeat-until');
  if (until === undefined) {
    for (const flag of ['max-repeat', 'metric'])
      if (parsed.string(flag) !== undefined)
        throw new HangbenchError('USAGE', `--${flag} goes with --repeat-until decided`);
    return null;
  }
  if (until !== 'decided')
    throw new HangbenchError(
      'USAGE',
      `--repeat-until ${until}: the one condition is "decided" (every comparison decided)`,
    );
  const metrics = listFlag('metric', parsed.string('metric')) ?? [...DEFAULTS.sequentialMetrics];
  const known = COMPARED_METRICS.map((metric) => metric.metric as string);
  const unknown = metrics.filter((metric) => !known.includes(metric));
  if (unknown.length > 0)
    throw new HangbenchError('USAGE', `--metric ${unknown.join(', ')}: not a compared metric (${known.join(', ')})`);
  return {
    maxRepeat: numberFlag('max-repeat', parsed.string('max-repeat'), { integer: true }) ?? DEFAULTS.maxRepeat,
    metrics,
  };
}
