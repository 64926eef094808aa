import type { ParseArgsConfig } from 'node:util';
import { loadConfigFile, type LoadedConfig } from '../run/config-file.js';
import type { EvalOptionsInput } from '../run/options.js';
import { HangbenchError } from '../types/errors.js';
import { durationList, listFlag, numberList, type ParsedArgs } from './args.js';
import { parseBudget } from './flags/budget.js';
import type { CliIO } from './io.js';

/** The flags that make variants, and --config; eval and list take the same, so list shows what eval would run. */
export const VARIANT_OPTIONS = {
  config: { type: 'string' },
  agent: { type: 'string' },
  mode: { type: 'string' },
  interval: { type: 'string' },
  prompt: { type: 'string' },
  'hung-ticks': { type: 'string' },
  hints: { type: 'string' },
  stdin: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  cache: { type: 'string' },
  from: { type: 'string' },
  cmd: { type: 'string' },
  set: { type: 'string', multiple: true },
  budget: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** Flags that make variants; a config file's variants and these do not mix. */
const VARIANT_FLAGS = Object.keys(VARIANT_OPTIONS).filter((flag) => flag !== 'config');

interface VariantInput {
  /** the loaded --config, for the options it may also set (repeat, time scale, …). */
  readonly config: LoadedConfig | undefined;
  readonly input: EvalOptionsInput;
}

/** The cases and variants of the command line (and --config). Comma lists are the axes of the variant cross product. */
export async function variantInput(parsed: ParsedArgs, io: CliIO): Promise<VariantInput> {
  const configFile = parsed.string('config');
  const config = configFile === undefined ? undefined : await loadConfigFile(configFile, io.cwd);
  if (config) {
    const mixed = VARIANT_FLAGS.filter((flag) => parsed.string(flag) !== undefined);
    if (mixed.length > 0)
      throw new HangbenchError(
        'USAGE',
        `--config ${configFile} defines the variants; leave out ${mixed.map((flag) => `--${flag}`).join(', ')} or drop --config`,
      );
  }
  const budget = parsed.string('budget');
  const input: EvalOptionsInput = {
    caseInputs: parsed.positionals.length > 0 ? parsed.positionals : config?.caseInputs,
    ...(config ? { variants: config.variants, config: configFile } : {}),
    agent: listFlag('agent', parsed.string('agent')),
    mode: listFlag('mode', parsed.string('mode')),
    intervalMs: durationList('interval', parsed.string('interval')),
    prompt: listFlag('prompt', parsed.string('prompt')),
    hungTicks: numberList('hung-ticks', parsed.string('hung-ticks'), { integer: true }),
    hints: hintsFlag(parsed.string('hints')),
    stdin: listFlag('stdin', parsed.string('stdin')),
    model: parsed.string('model'),
    baseUrl: parsed.string('base-url'),
    cache: parsed.string('cache'),
    from: parsed.string('from'),
    cmd: parsed.string('cmd'),
    settings: settingsFlag(parsed.strings('set')),
    budgets: budget === undefined ? undefined : parseBudget(budget),
    cwd: io.cwd,
  };
  return { config, input };
}

/** `--set shell_timeout=10,30 --set yield=1` → { shell_timeout: ['10', '30'], yield: ['1'] }: installed agents' settings axes. */
function settingsFlag(values: readonly string[]): Record<string, string[]> | undefined {
  if (values.length === 0) return undefined;
  const settings: Record<string, string[]> = {};
  for (const value of values) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(value);
    if (!match)
      throw new HangbenchError(
        'USAGE',
        `--set takes NAME=V1,V2 (a setting of the installed agent's adapter); got "${value}"`,
      );
    settings[match[1]!] = match[2]!.split(',');
  }
  return settings;
}

function hintsFlag(value: string | undefined): boolean[] | undefined {
  const words = listFlag('hints', value);
  return words?.map((word) => {
    if (word === 'on') return true;
    if (word === 'off') return false;
    throw new HangbenchError('USAGE', `--hints takes on, off or on,off; got "${word}"`);
  });
}
