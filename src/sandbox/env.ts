import { markerEnv } from '../proc/index.js';

/** Names copied from the harness environment; everything else is dropped. */
const ENV_ALLOWLIST: readonly (string | RegExp)[] = [
  'PATH',
  'LANG',
  /^LC_[A-Z_]+$/,
  'TZ',
  'TERM',
  'USER',
  'LOGNAME',
  'SHELL',
  // python3 here is a pyenv shim that looks for its versions under $HOME/.pyenv unless PYENV_ROOT says otherwise.
  'PYENV_ROOT',
  'PYENV_VERSION',
];

/** Never passed to a sandboxed program, whoever asks: the allowlist, SpawnOptions.env, anything. */
const SECRET_PATTERNS: readonly RegExp[] = [/^OPENAI_/i, /_KEY$/i, /_TOKEN$/i, /_SECRET$/i, /PASSWORD/i];

export function isSecretName(name: string): boolean {
  return SECRET_PATTERNS.some((pattern) => pattern.test(name));
}

function allowed(name: string): boolean {
  return ENV_ALLOWLIST.some((entry) => (typeof entry === 'string' ? entry === name : entry.test(name)));
}

export interface SandboxEnvInput {
  /** the harness environment (process.env). */
  readonly host: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly tmp: string;
  readonly timeScale: number;
  readonly attemptId: string;
  readonly commandId: number;
  /** PYENV_ROOT to use when the host has none (the harness's ~/.pyenv when it exists), else null. */
  readonly pyenvRoot: string | null;
  /** a folder put first on PATH (the interpreter pyenv's shims would select), or null. */
  readonly pathFirst?: string | null;
  /** SpawnOptions.env: applied over the allowlisted variables, under the sandbox's own. */
  readonly extra?: Readonly<Record<string, string>>;
}

/** The environment of a sandboxed command: allowlisted host variables, the caller's extras, the sandbox's own. */
export function scrubEnvironment(input: SandboxEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.host)) {
    if (value !== undefined && allowed(name)) env[name] = value;
  }
  if (env.PYENV_ROOT === undefined && input.pyenvRoot !== null) env.PYENV_ROOT = input.pyenvRoot;
  if (input.pathFirst) env.PATH = env.PATH ? `${input.pathFirst}:${env.PATH}` : input.pathFirst;
  Object.assign(env, input.extra ?? {});
  // Set last so that no extra can move HOME out of the sandbox or hide a process from the leak scan.
  Object.assign(env, {
    HOME: input.home,
    TMPDIR: input.tmp,
    HANGBENCH_TIME_SCALE: String(input.timeScale),
    ...markerEnv(input.attemptId, input.commandId),
  });
  for (const name of Object.keys(env)) {
    if (isSecretName(name)) delete env[name];
  }
  return env;
}
