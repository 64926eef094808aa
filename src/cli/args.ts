import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseDuration } from '../types/duration.js';
import { HangbenchError } from '../types/errors.js';

export interface ParsedArgs {
  readonly positionals: readonly string[];
  readonly help: boolean;
  string(name: string): string | undefined;
  /** every value of a flag given with `multiple: true` (`--set A=1 --set B=2`). */
  strings(name: string): readonly string[];
  flag(name: string): boolean;
}

export function parse(args: readonly string[], options: ParseArgsConfig['options']): ParsedArgs {
  try {
    const parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
    return {
      positionals: parsed.positionals,
      help: values.help === true,
      string: (name) => {
        const value = values[name];
        return typeof value === 'string' ? value : Array.isArray(value) ? value.at(-1) : undefined;
      },
      strings: (name) => {
        const value = values[name];
        return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
      },
      flag: (name) => values[name] === true,
    };
  } catch (error) {
    throw new HangbenchError('USAGE', `${(error as Error).message}; see --help`);
  }
}

export function durationFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    const ms = parseDuration(value);
    if (ms <= 0) throw new RangeError('must be more than 0');
    return ms;
  } catch (error) {
    throw new HangbenchError('USAGE', `--${name}: ${(error as Error).message}`);
  }
}

export function numberFlag(
  name: string,
  value: string | undefined,
  { integer = false, min = 1 } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  const valid = integer ? Number.isInteger(parsed) && parsed >= min : Number.isFinite(parsed) && parsed > 0;
  if (!valid) {
    throw new HangbenchError(
      'USAGE',
      `--${name} must be ${integer ? `a whole number ≥ ${min}` : 'a number > 0'}, got "${value}"`,
    );
  }
  return parsed;
}

/** `0.8`, `80%` or `80` → 0.8 */
export function rateFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const percent = value.endsWith('%');
  const parsed = Number(percent ? value.slice(0, -1) : value);
  const rate = percent || parsed > 1 ? parsed / 100 : parsed;
  if (!Number.isFinite(rate) || rate < 0 || rate > 1)
    throw new HangbenchError('USAGE', `--${name} must be a rate between 0 and 1 or a percentage, got "${value}"`);
  return rate;
}

/** `a,b,c` → ['a', 'b', 'c']: a comma list is one axis of the variant cross product. */
export function listFlag(name: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === ''))
    throw new HangbenchError('USAGE', `--${name}: an empty item in "${value}"; write a comma list such as a,b`);
  return items;
}

export function durationList(name: string, value: string | undefined): number[] | undefined {
  return listFlag(name, value)?.map((item) => durationFlag(name, item)!);
}

export function numberList(
  name: string,
  value: string | undefined,
  options: { integer?: boolean; min?: number } = {},
): number[] | undefined {
  return listFlag(name, value)?.map((item) => numberFlag(name, item, options)!);
}
