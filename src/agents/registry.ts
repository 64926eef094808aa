import path from 'node:path';
import { DEFAULTS } from '../defaults.js';
import { HangbenchError } from '../types/errors.js';
import { listOf, type AgentName, type AgentSpec, type VariantAxes } from '../types/variant.js';
import { baselineAgent } from './baseline.js';
import { bundledAdapters, cliAgent } from './cli/index.js';
import { execAgent } from './exec/agent.js';
import { moduleAgent } from './module/agent.js';
import { nopAgent } from './nop.js';
import { openAIAgentFromSettings } from './openai/from-settings.js';
import { oracleAgent } from './oracle.js';
import type { AgentFactory } from './protocol.js';
import { replayAgent } from './replay/agent.js';

/** What every agent factory may need beyond its own spec. */
export interface AgentEnvironment {
  readonly cwd: string;
  readonly timeScale: number;
  /** --agent-env: the only variables of the harness's environment an exec agent's own process gets. */
  readonly agentEnv?: readonly string[];
  /** --agent-allow-host: the hosts its egress proxy lets it reach (default: the host of OPENAI_BASE_URL). */
  readonly agentAllowHosts?: readonly string[];
}

/** The agent settings a config file's variant may give, in the order a problem with them is reported. */
export const AGENT_CONFIG_KEYS = [
  'hungTicks',
  'prompt',
  'model',
  'baseUrl',
  'cache',
  'cmd',
  'adapter',
  'settings',
  'from',
  'path',
] as const;
export type AgentConfigKey = (typeof AGENT_CONFIG_KEYS)[number];

/** A config file's variant's agent settings, as its schema reads them. */
export interface AgentConfigFields {
  readonly hungTicks?: number;
  readonly prompt?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly cache?: string;
  readonly cmd?: string;
  readonly adapter?: string;
  readonly settings?: Readonly<Record<string, string>>;
  readonly from?: string;
  readonly path?: string;
}

type SpecOf<K extends AgentName> = Extract<AgentSpec, { agent: K }>;

/** One kind of agent, whole: what it takes in a config file and on the command line, how its variants are named, its factory. */
export interface AgentDefinition<K extends AgentName> {
  /** the config-file settings it takes; any other agent setting in its variant is refused. */
  readonly configKeys: readonly AgentConfigKey[];
  /** how --agent names it where that is not its kind: `cli:NAME`; null: by no word (a module is given by its path). */
  readonly word?: string | null;
  /**
   * how many times it runs a command in an attempt, for the run's estimates of CPU and duration: none (nop), once
   * (the baseline kills the hang), twice when absent (it runs the repro, then again after a fix).
   */
  readonly commandRuns?: number;
  /** it fixes the cause (the oracle): its verify passes quickly, and check-cases requires it to solve every case. */
  readonly fixesCause?: boolean;
  /** a setting it cannot do without, and the line that says what to give. */
  readonly requires?: { readonly key: AgentConfigKey; readonly message: string };
  /** its spec from a config file's variant (paths relative to the config file's folder `base`). */
  fromConfig(fields: AgentConfigFields, base: string): SpecOf<K>;
  /** its specs from the CLI's axes: one per value of each axis it takes (`--hung-ticks 1,2` is two baselines). */
  fromAxes(axes: VariantAxes): SpecOf<K>[];
  /** the agent's part of a variant name (`baseline-k2`, `openai-minimal`). */
  label(spec: SpecOf<K>): string;
  factory(spec: SpecOf<K>, environment: AgentEnvironment): AgentFactory;
}

const MODULE_ON_THE_COMMAND_LINE = "--agent takes the module's path itself, e.g. --agent ./my-agent.mjs (docs/api.md)";

/** Every kind of agent. Adding one is adding its spec to types/variant.ts and its entry here. */
export const AGENTS: { readonly [K in AgentName]: AgentDefinition<K> } = {
  baseline: {
    configKeys: ['hungTicks'],
    commandRuns: 1,
    fromConfig: (fields) => ({ agent: 'baseline', hungTicks: fields.hungTicks ?? DEFAULTS.hungTicks }),
    fromAxes: (axes) =>
      (listOf(axes.hungTicks) ?? [DEFAULTS.hungTicks]).map((hungTicks) => ({ agent: 'baseline', hungTicks })),
    label: (spec) => `baseline-k${spec.hungTicks}`,
    factory: (spec) => baselineAgent(spec.hungTicks),
  },
  openai: {
    configKeys: ['prompt', 'model', 'baseUrl', 'cache'],
    fromConfig: (fields) => ({
      agent: 'openai',
      prompt: fields.prompt ?? DEFAULTS.prompt,
      ...endpointOf(fields),
      ...(fields.cache === undefined ? {} : { cache: fields.cache }),
    }),
    fromAxes: (axes) =>
      (listOf(axes.prompt) ?? [DEFAULTS.prompt]).map((prompt) => ({
        agent: 'openai',
        prompt,
        ...endpointOf(axes),
        ...(axes.cache === undefined ? {} : { cache: axes.cache }),
      })),
    label: (spec) => `openai-${safeLabel(path.basename(spec.prompt))}`,
    factory: (spec, environment) =>
      openAIAgentFromSettings({ ...spec, cwd: environment.cwd, timeScale: environment.timeScale }),
  },
  exec: {
    configKeys: ['cmd'],
    requires: { key: 'cmd', message: 'agent exec needs cmd: the command that starts the external agent' },
    fromConfig: (fields) => ({ agent: 'exec', cmd: fields.cmd ?? '' }),
    fromAxes: (axes) => {
      if (!axes.cmd)
        throw new HangbenchError(
          'USAGE',
          '--agent exec needs --cmd "COMMAND" (e.g. --cmd "node examples/exec-agent.mjs")',
        );
      return [{ agent: 'exec', cmd: axes.cmd }];
    },
    label: () => 'exec',
    factory: (spec, environment) =>
      execAgent({
        command: spec.cmd,
        cwd: environment.cwd,
        agentEnv: environment.agentEnv ?? [],
        allowHosts: environment.agentAllowHosts ?? defaultAllowHosts(),
      }),
  },
  replay: {
    configKeys: ['from'],
    requires: { key: 'from', message: 'agent replay needs from: a results/<run> folder' },
    fromConfig: (fields) => ({ agent: 'replay', from: fields.from ?? '' }),
    fromAxes: (axes) => {
      if (!axes.from) throw new HangbenchError('USAGE', '--agent replay needs --from RUN_DIR (a results/<run> folder)');
      return [{ agent: 'replay', from: axes.from }];
    },
    label: () => 'replay',
    factory: (spec, environment) => replayAgent(spec.from, environment.cwd),
  },
  oracle: {
    configKeys: [],
    fixesCause: true,
    fromConfig: () => ({ agent: 'oracle' }),
    fromAxes: () => [{ agent: 'oracle' }],
    label: () => 'oracle',
    factory: () => oracleAgent,
  },
  nop: {
    configKeys: [],
    commandRuns: 0,
    fromConfig: () => ({ agent: 'nop' }),
    fromAxes: () => [{ agent: 'nop' }],
    label: () => 'nop',
    factory: () => nopAgent,
  },
  cli: {
    configKeys: ['model', 'baseUrl', 'cmd', 'adapter', 'settings'],
    word: 'cli:NAME',
    requires: {
      key: 'adapter',
      get message() {
        return `agent cli needs adapter: the name of a file under agents/ (${bundledAdapters().join(', ')})`;
      },
    },
    fromConfig: (fields) => ({
      agent: 'cli',
      adapter: fields.adapter ?? '',
      settings: fields.settings ?? {},
      ...endpointOf(fields),
      ...(fields.cmd === undefined ? {} : { cmd: fields.cmd }),
    }),
    // every cli:<adapter> of --agent is one axis with the --set settings: run/variants.ts expands them (cliSpecsOf)
    fromAxes: () => [],
    label: (spec) =>
      [
        `cli-${spec.adapter}`,
        ...Object.entries(spec.settings).map(([name, value]) => safeLabel(`${name}-${value}`)),
      ].join('-'),
    factory: (spec) => cliAgent(spec),
  },
  module: {
    configKeys: ['path'],
    word: null,
    requires: { key: 'path', message: 'agent module needs path: the agent module, e.g. ./my-agent.mjs' },
    fromConfig: (fields, base) => ({ agent: 'module', path: path.resolve(base, fields.path ?? '') }),
    fromAxes: () => {
      throw new HangbenchError('USAGE', MODULE_ON_THE_COMMAND_LINE);
    },
    label: (spec) => `module-${safeLabel(path.basename(spec.path).replace(/\.[mc]?[jt]s$/, ''))}`,
    factory: (spec, environment) => moduleAgent(spec.path, environment.cwd),
  },
};

/** The agents in the order the help lists them. */
export const AGENT_KINDS = Object.keys(AGENTS) as readonly AgentName[];

/** The words --agent takes for the built-in kinds, in the help's order (a module is given by its path instead). */
export function agentWords(): string[] {
  return AGENT_KINDS.flatMap((kind) => {
    const word = AGENTS[kind].word;
    return word === null ? [] : [word ?? kind];
  });
}

/** What the run's estimates know of an agent word; a word of no kind (an old run's, say) runs twice and fixes nothing. */
export function agentTraits(word: string): { readonly commandRuns: number; readonly fixesCause: boolean } {
  const definition: Pick<AgentDefinition<AgentName>, 'commandRuns' | 'fixesCause'> | undefined = Object.hasOwn(
    AGENTS,
    word,
  )
    ? AGENTS[word as AgentName]
    : undefined;
  return { commandRuns: definition?.commandRuns ?? 2, fixesCause: definition?.fixesCause ?? false };
}

/** One factory per variant, made once per run: an agent's settings are its AgentSpec and nothing else. */
export function createAgentFactory(spec: AgentSpec, environment: AgentEnvironment): AgentFactory {
  return (AGENTS[spec.agent] as AgentDefinition<AgentName>).factory(spec as never, environment);
}

/** The agent's part of a variant's name. */
export function agentLabel(spec: AgentSpec): string {
  return (AGENTS[spec.agent] as AgentDefinition<AgentName>).label(spec as never);
}

/** `module` on the command line: the module's path is given instead of the word. */
export function refuseModuleWord(): never {
  throw new HangbenchError('USAGE', MODULE_ON_THE_COMMAND_LINE);
}

/** The host of OPENAI_BASE_URL when it is set: where an exec agent's model lives. */
function defaultAllowHosts(): string[] {
  try {
    return process.env.OPENAI_BASE_URL ? [new URL(process.env.OPENAI_BASE_URL).hostname] : [];
  } catch {
    return [];
  }
}

function endpointOf(fields: { readonly model?: string; readonly baseUrl?: string }): {
  model?: string;
  baseUrl?: string;
} {
  return {
    ...(fields.model === undefined ? {} : { model: fields.model }),
    ...(fields.baseUrl === undefined ? {} : { baseUrl: fields.baseUrl }),
  };
}

export function safeLabel(text: string): string {
  return text.replace(/[^A-Za-z0-9._+-]+/g, '-');
}
