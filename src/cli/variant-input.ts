import { loadConfigFile, type LoadedConfig } from '../run/index.js';
import type { EvalOptionsInput } from '../run/index.js';
import { HangbenchError } from '../types/errors.js';
import type { FlagValues } from './flags/flag.js';
import type { VARIANT_FLAGS } from './flags/variant-flags.js';
import { VARIANT_MAKERS } from './flags/variant-flags.js';
import type { CliIO } from './io.js';

interface VariantInput {
  /** the loaded --config, for the options it may also set (repeat, time scale, …). */
  readonly config: LoadedConfig | undefined;
  readonly input: EvalOptionsInput;
}

/** The cases and variants of the command line (and --config). Comma lists are the axes of the variant cross product. */
export async function variantInput(
  values: FlagValues<typeof VARIANT_FLAGS>,
  positionals: readonly string[],
  io: CliIO,
): Promise<VariantInput> {
  const configFile = values.config;
  const config = configFile === undefined ? undefined : await loadConfigFile(configFile, io.cwd);
  if (config) {
    const mixed = VARIANT_MAKERS.filter((name) => values[name as keyof typeof values] !== undefined);
    if (mixed.length > 0)
      throw new HangbenchError(
        'USAGE',
        `--config ${configFile} defines the variants; leave out ${mixed.map((flag) => `--${flag}`).join(', ')} or drop --config`,
      );
  }
  const input: EvalOptionsInput = {
    caseInputs: positionals.length > 0 ? positionals : config?.caseInputs,
    ...(config ? { variants: config.variants, config: configFile } : {}),
    agent: values.agent,
    mode: values.mode,
    intervalMs: values.interval,
    prompt: values.prompt,
    hungTicks: values['hung-ticks'],
    hints: values.hints,
    stdin: values.stdin,
    model: values.model,
    baseUrl: values['base-url'],
    cache: values.cache,
    from: values.from,
    cmd: values.cmd,
    // `--set shell_timeout=10,30 --set yield=1` → { shell_timeout: ['10', '30'], yield: ['1'] }: installed agents' settings axes
    settings: values.set === undefined ? undefined : Object.fromEntries(values.set),
    budgets: values.budget,
    cwd: io.cwd,
  };
  return { config, input };
}
