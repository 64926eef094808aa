import { existsSync } from 'node:fs';
import path from 'node:path';
import { HangbenchError } from '../types/errors.js';
import { makeMode, MODE_NAMES, modeLabel, modeTakes, type MonitorMode } from '../modes/index.js';
import {
  adapterOfWord,
  AGENT_NAMES,
  isInstalledAgent,
  listOf,
  type AgentName,
  type AgentSpec,
  type VariantAxes,
  type VariantSpec,
} from '../types/variant.js';
import { AGENTS, agentLabel, refuseModuleWord, type AgentDefinition } from '../agents/registry.js';
import { DEFAULTS } from '../defaults.js';
import { distinct } from '../types/distinct.js';
import { STDIN_WIRINGS, type StdinWiring } from '../types/terminal.js';

export type { OneOrMany, VariantAxes } from '../types/variant.js';

/**
 * The cross product of the axes given (`--agent a,b --mode m,n --interval 2s,5s …`). A setting multiplies only
 * the agents that take it: `--agent baseline,oracle --hung-ticks 1,2` is three variants, not four.
 */
export function expandVariants(input: VariantAxes): VariantSpec[] {
  const requested = listOf(input.agent) ?? [DEFAULTS.agent];
  const modes = checked(listOf(input.mode) ?? [DEFAULTS.mode], MODE_NAMES, 'mode');
  const periods = listOf(input.intervalMs) ?? [DEFAULTS.intervalMs];
  const hintSettings = listOf(input.hints) ?? [DEFAULTS.hints];
  const wirings: readonly (StdinWiring | undefined)[] = input.stdin
    ? checked(listOf(input.stdin) ?? [], STDIN_WIRINGS, 'stdin')
    : [undefined];
  const monitors = distinct(
    modes.flatMap((mode) =>
      (modeTakes(mode).includes('interval') ? periods : [DEFAULTS.intervalMs]).map((periodMs) =>
        makeMode(mode, { periodMs }),
      ),
    ),
  );
  const adapters = requested.flatMap((word) => adapterOfWord(word) ?? []);
  let cliExpanded = false;
  const agentList = distinct(
    requested.flatMap((word) => {
      if (isModulePath(word)) return [moduleSpec(word, input.cwd)];
      if (adapterOfWord(word) === undefined) return agentSpecsOf(builtinAgent(word), input);
      // every cli:<adapter> at the place of the first one, as one axis with the --set settings
      if (cliExpanded) return [];
      cliExpanded = true;
      return cliSpecsOf(adapters, input);
    }),
  );
  if (input.stdin !== undefined && agentList.some((agent) => isInstalledAgent(agent.agent)))
    throw new HangbenchError(
      'USAGE',
      '--stdin wires the commands the harness runs; an installed agent CLI wires its own',
    );
  const variants = agentList.flatMap((agent) =>
    monitors.flatMap((monitor) =>
      hintSettings.flatMap((hints) =>
        wirings.map((stdin): VariantSpec => ({
          name: variantName(agent, monitor, hints, stdin),
          agent,
          monitor,
          ...(input.budgets ? { budgets: input.budgets } : {}),
          ...(hints ? {} : { hints: false }),
          ...(stdin === undefined ? {} : { stdin }),
        })),
      ),
    ),
  );
  return assertUniqueNames(variants);
}

function agentSpecsOf(agent: AgentName, input: VariantAxes): AgentSpec[] {
  return (AGENTS[agent] as AgentDefinition<AgentName>).fromAxes(input);
}

function builtinAgent(word: string): AgentName {
  if (word === 'module') refuseModuleWord();
  const kinds = AGENT_NAMES.filter((name) => AGENTS[name].word !== null);
  // a kind --agent names otherwise is shown as it is named there: cli:<name>
  return checked([word], kinds, 'agent', (name) => AGENTS[name].word?.replace('NAME', '<name>') ?? name)[0]!;
}

/** `./my-agent.mjs`, `/abs/agent.ts`, `agents/x.js`: a module agent rather than a built-in name. */
function isModulePath(word: string): boolean {
  return word.startsWith('.') || word.startsWith('/') || /\.[mc]?[jt]s$/.test(word);
}

function moduleSpec(word: string, cwd: string | undefined): AgentSpec {
  const full = path.resolve(cwd ?? process.cwd(), word);
  if (!existsSync(full))
    throw new HangbenchError(
      'USAGE',
      `--agent ${word}: no such file (${full}); give the path of a module whose default export is defineAgent({ … })`,
    );
  return { agent: 'module', path: word };
}

/** `--agent cli:codex,cli:opencode --set shell_timeout=10,30`: every adapter × every combination of the settings. */
function cliSpecsOf(adapters: readonly string[], input: VariantAxes): AgentSpec[] {
  if (adapters.some((name) => !/^[a-z0-9][a-z0-9-]*$/.test(name))) {
    throw new HangbenchError(
      'USAGE',
      `--agent cli:<name> names an adapter file under agents/ (lower-case letters, digits, -); got ${adapters.join(', ')}`,
    );
  }
  if (adapters.includes('generic') && !input.cmd)
    throw new HangbenchError('USAGE', "--agent cli:generic needs --cmd '... {issue_file}'");
  let combinations: Record<string, string>[] = [{}];
  for (const [name, values] of Object.entries(input.settings ?? {})) {
    combinations = combinations.flatMap((combination) => values.map((value) => ({ ...combination, [name]: value })));
  }
  return adapters.flatMap((adapter) =>
    combinations.map((settings): AgentSpec => ({
      agent: 'cli',
      adapter,
      settings,
      ...(input.model === undefined ? {} : { model: input.model }),
      ...(input.baseUrl === undefined ? {} : { baseUrl: input.baseUrl }),
      ...(adapter === 'generic' && input.cmd ? { cmd: input.cmd } : {}),
    })),
  );
}

/**
 * `baseline-k2·interval-10s`, `openai-diagnostic·no-output-5s`, `oracle·poll·hints-off`, `baseline-k2·interval-10s·stdin-null`:
 * built from the spec alone, so stable across runs.
 */
export function variantName(agent: AgentSpec, monitor: MonitorMode, hints = true, stdin?: StdinWiring): string {
  return [
    agentLabel(agent),
    modeLabel(monitor),
    ...(hints ? [] : ['hints-off']),
    ...(stdin === undefined ? [] : [`stdin-${stdin}`]),
  ].join('·');
}

function checked<T extends string>(
  values: readonly string[],
  known: readonly T[],
  flag: string,
  show: (name: T) => string = (name) => name,
): T[] {
  for (const value of values) {
    const choices = known.map(show).join(', ');
    if (!(known as readonly string[]).includes(value))
      throw new HangbenchError('USAGE', `unknown ${flag} "${value}"; choose from ${choices}`);
  }
  return [...new Set(values)] as T[];
}

export function assertUniqueNames(variants: readonly VariantSpec[]): VariantSpec[] {
  const seen = new Set<string>();
  for (const variant of variants) {
    if (seen.has(variant.name))
      throw new HangbenchError('USAGE', `two variants are both named "${variant.name}"; give each a unique name`);
    seen.add(variant.name);
  }
  return [...variants];
}
