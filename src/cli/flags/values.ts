import { formatDuration, parseDuration } from '../../types/duration.js';
import { HangbenchError } from '../../types/errors.js';
import type { ValueType } from './flag.js';

const usage = (message: string): never => {
  throw new HangbenchError('USAGE', message);
};

/** Any text. */
export function text(argument: string): ValueType<string> {
  return { argument, read: (value) => value, show: (value) => value };
}

/** A duration > 0, written as in case files: 250ms, 30s, 5m, 1h, or seconds. */
export function duration(argument = 'D'): ValueType<number> {
  return {
    argument,
    read: (value, flag) => {
      try {
        const ms = parseDuration(value);
        if (ms <= 0) throw new RangeError('must be more than 0');
        return ms;
      } catch (error) {
        return usage(`--${flag}: ${(error as Error).message}`);
      }
    },
    show: formatDuration,
  };
}

/** A whole number ≥ min. */
export function integer(argument = 'N', min = 1): ValueType<number> {
  return {
    argument,
    read: (value, flag) => {
      const parsed = Number(value);
      return Number.isInteger(parsed) && parsed >= min
        ? parsed
        : usage(`--${flag} must be a whole number ≥ ${min}, got "${value}"`);
    },
    show: String,
  };
}

/** A number > 0. */
export function positive(argument = 'F'): ValueType<number> {
  return {
    argument,
    read: (value, flag) => {
      const parsed = Number(value);
      return Number.isFinite(parsed) && parsed > 0 ? parsed : usage(`--${flag} must be a number > 0, got "${value}"`);
    },
    show: String,
  };
}

/** `0.8`, `80%` or `80` → 0.8 */
export function rate(argument = 'RATE'): ValueType<number> {
  return {
    argument,
    read: (value, flag) => {
      const percent = value.endsWith('%');
      const parsed = Number(percent ? value.slice(0, -1) : value);
      const fraction = percent || parsed > 1 ? parsed / 100 : parsed;
      return Number.isFinite(fraction) && fraction >= 0 && fraction <= 1
        ? fraction
        : usage(`--${flag} must be a rate between 0 and 1 or a percentage, got "${value}"`);
    },
    show: String,
  };
}

/** One of a few words. */
export function choice<const Word extends string>(words: readonly Word[], argument = words.join('|')): ValueType<Word> {
  return {
    argument,
    read: (value, flag) =>
      (words as readonly string[]).includes(value)
        ? (value as Word)
        : usage(`--${flag} must be ${words.slice(0, -1).join(', ')} or ${words.at(-1)}, got "${value}"`),
    show: (value) => value,
  };
}

/** `a,b,c` → ['a', 'b', 'c'], each read as `item` reads it: a comma list is one axis of the variant cross product. */
export function list<T>(item: ValueType<T>, argument = 'LIST'): ValueType<readonly T[]> {
  return {
    argument,
    read: (value, flag) => {
      const items = value.split(',').map((entry) => entry.trim());
      if (items.some((entry) => entry === ''))
        usage(`--${flag}: an empty item in "${value}"; write a comma list such as a,b`);
      return items.map((entry) => item.read(entry, flag));
    },
    show: (values) => values.map((value) => item.show(value)).join(','),
  };
}

/** A value read by a parser of its own, which throws the USAGE error itself (`--shard 1/4`, `--budget wall=6m`). */
export function parsed<T>(argument: string, read: (value: string) => T, show: (value: T) => string): ValueType<T> {
  return { argument, read: (value) => read(value), show };
}
