import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HangbenchError } from '../../types/errors.js';
import type { FlagTable, FlagValues } from './flag.js';

export interface ParsedFlags<Table extends FlagTable> {
  readonly positionals: readonly string[];
  /** -h / --help: nothing else was read (a bad value does not hide the help). */
  readonly help: boolean;
  readonly values: FlagValues<Table>;
  /** the flags given, in the table's order. */
  readonly given: readonly (keyof Table & string)[];
}

/** The command line read by the command's table: unknown flags refused, each value read by its type. */
export function parseFlags<Table extends FlagTable>(args: readonly string[], table: Table): ParsedFlags<Table> {
  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, spec] of Object.entries(table))
    options[name] = {
      type: spec.value === undefined ? 'boolean' : 'string',
      ...(spec.multiple ? { multiple: true } : {}),
      ...(spec.short === undefined ? {} : { short: spec.short }),
    };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new HangbenchError('USAGE', `${(error as Error).message}; see --help`);
  }
  const raw = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const help = raw.help === true;
  const given = Object.keys(table).filter((name) => raw[name] !== undefined);
  const values: Record<string, unknown> = {};
  if (!help)
    for (const name of given) {
      const { value } = table[name]!;
      const text = raw[name];
      values[name] =
        value === undefined
          ? true
          : Array.isArray(text)
            ? text.map((one) => value.read(one, name))
            : value.read(String(text), name);
    }
  return { positionals: parsed.positionals, help, values: values as FlagValues<Table>, given };
}
