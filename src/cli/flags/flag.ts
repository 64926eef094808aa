/** How a flag's text becomes its value, and how help spells the value and a default of it. */
export interface ValueType<T> {
  /** the value as help shows it: N, LIST, FILE, auto|strict. */
  readonly argument: string;
  /** the value of `--flag TEXT`; a bad one is a USAGE error that names the flag, what was given and what is accepted. */
  read(text: string, flag: string): T;
  show(value: T): string;
}

/**
 * What `eval --resume RUN_DIR` does with a flag: `recorded` flags are the run's options, kept in its meta.json, so a
 * resume refuses them; `may change` and `may grow` ones may be given again (the latter only to more); `not recorded`
 * ones are this invocation's own (how it prints, what it exits on), not the run's.
 */
export const RESUME_RULES = ['recorded', 'may change', 'may grow', 'not recorded'] as const;
export type ResumeRule = (typeof RESUME_RULES)[number];

/** What every flag says of itself: its help, where help lists it, and (eval) what --resume does with it. */
interface FlagHelp {
  /** one line or a few, as --help prints them; a function when it reads what is installed (the adapters). */
  readonly help: string | (() => string);
  /** lines help prints under the flag, indented (the modes, one a line); the docs join them. */
  readonly details?: () => readonly string[];
  /** the default when it is no single value of the flag's type, in a few words (else `default`). */
  readonly defaultText?: string;
  readonly short?: string;
  /** the heading help lists it under (a key of the command's sections); absent: the first. */
  readonly section?: string;
  /** eval only: what --resume does with it. */
  readonly resume?: ResumeRule;
}

/** A flag that takes a value: its type, and its default (from DEFAULTS) of that type. */
export interface ValuedFlag<T> extends FlagHelp {
  readonly value: ValueType<T>;
  readonly default?: T;
  /** given more than once, each value is kept (`--set A=1 --set B=2`). */
  readonly multiple?: boolean;
}

/** A switch (`--json`): true when given. */
export interface SwitchFlag extends FlagHelp {
  readonly value?: undefined;
  readonly default?: undefined;
  readonly multiple?: undefined;
}

export type Flag = ValuedFlag<unknown> | SwitchFlag;

/** A command's flags by name, in the order help lists them. */
export type FlagTable = Readonly<Record<string, Flag>>;

/** Keeps each entry's value type (a table literal alone would widen them) and checks its default against it. */
export function flag<T>(spec: ValuedFlag<T> & { readonly multiple: true }): ValuedFlag<T> & { readonly multiple: true };
export function flag<T>(spec: ValuedFlag<T>): ValuedFlag<T>;
export function flag(spec: SwitchFlag): SwitchFlag;
export function flag(spec: Flag): Flag {
  return spec;
}

type ValueOf<F> = F extends { readonly multiple: true; readonly value: ValueType<infer T> }
  ? readonly T[]
  : F extends { readonly value: ValueType<infer T> }
    ? T
    : boolean;

/** What the command line gave, typed by the table: a flag not given is undefined (its default is the run's to apply). */
export type FlagValues<Table extends FlagTable> = { readonly [Name in keyof Table]?: ValueOf<Table[Name]> };

export function helpOf(spec: Flag): string {
  return typeof spec.help === 'function' ? spec.help() : spec.help;
}

/** The default as help and the docs say it, or undefined when there is none. */
export function defaultOf(spec: Flag): string | undefined {
  if (spec.defaultText !== undefined) return spec.defaultText;
  if (spec.value === undefined || spec.default === undefined) return undefined;
  return spec.value.show(spec.default);
}
