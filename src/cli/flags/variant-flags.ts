import { agentWords } from '../../agents/registry.js';
import { listBuiltinPrompts } from '../../agents/openai/prompt-set.js';
import { DEFAULTS } from '../../defaults.js';
import { MODE_NAMES, modeHelp } from '../../modes/index.js';
import { HangbenchError } from '../../types/errors.js';
import { STDIN_WIRINGS } from '../../types/terminal.js';
import { bundledAdapters } from '../../agents/cli/index.js';
import { BUDGET_EXAMPLE, parseBudget } from './budget.js';
import { flag, type ValueType } from './flag.js';
import { duration, integer, list, parsed, text } from './values.js';

const onOff: ValueType<boolean> = {
  argument: 'on|off',
  read: (word) => {
    if (word === 'on') return true;
    if (word === 'off') return false;
    throw new HangbenchError('USAGE', `--hints takes on, off or on,off; got "${word}"`);
  },
  show: (value) => (value ? 'on' : 'off'),
};

/** `NAME=V1,V2`: one installed-agent setting and its values (an axis). */
const setting: ValueType<readonly [string, readonly string[]]> = {
  argument: 'NAME=V1,V2',
  read: (value) => {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(value);
    if (!match)
      throw new HangbenchError(
        'USAGE',
        `--set takes NAME=V1,V2 (a setting of the installed agent's adapter); got "${value}"`,
      );
    return [match[1]!, match[2]!.split(',')];
  },
  show: ([name, values]) => `${name}=${values.join(',')}`,
};

/** The agents --agent names: each built-in kind but module (a module is given by its path), cli as cli:NAME. */
export { agentWords };

/**
 * The flags that make variants, and --config. eval and list take the same, so list shows what eval would run; a
 * config file's variants and the others do not mix. Every one is recorded in a run's meta.json.
 */
export const VARIANT_FLAGS = {
  agent: flag({
    value: list(text('')),
    section: 'variants',
    resume: 'recorded',
    help: () => `${agentWords().join(' | ')} | ./my-agent.mjs`,
    default: [DEFAULTS.agent],
    details: () => [
      `${DEFAULTS.agent.padEnd(11)}offline, no model: kills after --hung-ticks "hung" ticks in a row, never fixes`,
      `${'oracle'.padEnd(11)}scripted from the case: kills at the first tick after the onset, applies solution.patch`,
      `${'nop'.padEnd(11)}finishes at once: the floor every other agent must beat`,
      `${'openai'.padEnd(11)}any OpenAI-compatible chat-completions endpoint (--model, --base-url, --prompt, --cache)`,
      `${'exec'.padEnd(11)}an external agent speaking JSON lines on stdin/stdout (--cmd; docs/agent-protocol.md)`,
      `${'replay'.padEnd(11)}the actions recorded in --from RUN_DIR`,
      `${'cli:NAME'.padEnd(11)}an installed agent CLI run as it is in the sandbox (--model, --base-url, --set; docs/installed-agents.md),`,
      `${''.padEnd(11)}one of agents/*.yaml: ${bundledAdapters()
        .map((name) => `cli:${name}`)
        .join(', ')}`,
      `${'./a.mjs'.padEnd(11)}(or .ts) a module whose default export is defineAgent({ create }), run in-process (docs/api.md)`,
    ],
  }),
  mode: flag({
    value: list(text('')),
    section: 'variants',
    resume: 'recorded',
    help: 'how the monitor tells the agent',
    default: [DEFAULTS.mode],
    details: () => MODE_NAMES.map((name) => `${name.padEnd(11)}${modeHelp(name)}`),
  }),
  interval: flag({
    value: list(duration()),
    section: 'variants',
    resume: 'recorded',
    help: "each mode's period, e.g. 10s, 500ms",
    default: [DEFAULTS.intervalMs],
  }),
  'hung-ticks': flag({
    value: list(integer()),
    section: 'variants',
    resume: 'recorded',
    help: 'baseline: kill after K consecutive "hung" ticks',
    default: [DEFAULTS.hungTicks],
  }),
  prompt: flag({
    value: list(text('')),
    section: 'variants',
    resume: 'recorded',
    help: () => `openai: system prompt and tick template, each a name or a folder: ${listBuiltinPrompts().join(' | ')}`,
    default: [DEFAULTS.prompt],
  }),
  hints: flag({
    value: list(onOff, 'on|off|on,off'),
    section: 'variants',
    resume: 'recorded',
    help: "deliver the cases' hints or not",
    default: [DEFAULTS.hints],
  }),
  stdin: flag({
    value: list(text('')),
    section: 'variants',
    resume: 'recorded',
    help: `the agent's commands' stdin: ${STDIN_WIRINGS.join(', ')} (an open pipe, /dev/null, a pty);\nthe report tables each case by wiring`,
    defaultText: 'as each case declares',
  }),
  set: flag({
    value: setting,
    multiple: true,
    section: 'variants',
    resume: 'recorded',
    help: 'cli:NAME: an adapter setting as a variant axis (repeatable), e.g. --set unified_exec=enable,disable',
  }),
  budget: flag({
    value: parsed('KEY=V,…', parseBudget, (budget) => JSON.stringify(budget)),
    section: 'variants',
    resume: 'recorded',
    help: `every variant's budgets instead of each case's, e.g. ${BUDGET_EXAMPLE}\n(any of the three; unscaled durations, as a config file's budgets:)`,
    defaultText: "each case's own",
  }),
  config: flag({
    value: text('FILE'),
    section: 'variants',
    resume: 'recorded',
    help: (): string =>
      `variants, cases, repeats and budgets from a YAML file (schema/config.schema.json; docs/variants.md);\nit does not mix with ${VARIANT_MAKERS.map((name) => `--${name}`).join(', ')}`,
  }),
  model: flag({
    value: text('NAME'),
    section: 'agents',
    resume: 'recorded',
    help: 'openai, cli:NAME: the model to call (required); for cli:NAME it is asked for through the model\nproxy, and probe needs no endpoint: the proxy answers itself (docs/installed-agents.md)',
  }),
  'base-url': flag({
    value: text('URL'),
    section: 'agents',
    resume: 'recorded',
    help: 'openai, cli:NAME: the endpoint, e.g. http://localhost:11434/v1 (the key only from OPENAI_API_KEY)',
    defaultText: 'OPENAI_BASE_URL, else api.openai.com',
  }),
  cache: flag({
    value: text('DIR'),
    section: 'agents',
    resume: 'recorded',
    help: 'openai: reuse responses for identical requests of the same repeat',
    defaultText: 'off',
  }),
  from: flag({
    value: text('RUN_DIR'),
    section: 'agents',
    resume: 'recorded',
    help: 'replay: the actions recorded in RUN_DIR/<case>/<variant>/<repeat>/trace.jsonl',
  }),
  cmd: flag({
    value: text('"COMMAND"'),
    section: 'agents',
    resume: 'recorded',
    help: "exec: the command that starts the external agent; cli:generic: the CLI's command, with {issue_file}",
  }),
} as const;

/** The flags that make variants, which do not mix with a config file's. */
export const VARIANT_MAKERS = Object.keys(VARIANT_FLAGS).filter((name) => name !== 'config');
