import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULTS } from '../../defaults.js';
import { HangbenchError } from '../../types/errors.js';
import { compileTemplate, type Template } from '../../types/template.js';
import { TICK_PLACEHOLDERS } from '../../monitor/index.js';

/** prompts/ of this package: three levels up from src/agents/openai and from dist/agents/openai alike. */
const BUILTIN_PROMPTS_DIR = fileURLToPath(new URL('../../../prompts/', import.meta.url));

const TASK_PLACEHOLDERS = ['issue', 'repro', 'files'] as const;

const PromptConfigSchema = z.strictObject({
  description: z.string().default(''),
  /** files relative to the prompt's folder. */
  system: z.string().default('../system.md'),
  task: z.string().default('../task.md'),
  tick: z.string().default('tick.md'),
  /** tool-result: a tick is the result of the pending run/wait call; user-message: a short tool result, then the tick as a user message. */
  tickDelivery: z.enum(['tool-result', 'user-message']).default('tool-result'),
  /** render each tick within this many tokens ("default": DEFAULTS.tickTokens); absent: ticks are rendered whole. */
  tickTokens: z.union([z.literal('default'), z.number().int().positive()]).optional(),
});

export interface PromptSet {
  readonly name: string;
  readonly description: string;
  readonly system: Template;
  readonly task: Template;
  readonly tick: Template;
  readonly tickDelivery: 'tool-result' | 'user-message';
  /** the token budget each tick is rendered within; null: whole. */
  readonly tickTokens: number | null;
}

/** `--prompt NAME` is a folder of prompts/; a value with a slash is a folder path relative to cwd. */
export function loadPromptSet(nameOrPath: string, cwd: string): PromptSet {
  const isPath = nameOrPath.includes('/') || nameOrPath.includes(path.sep) || nameOrPath.startsWith('.');
  const dir = isPath ? path.resolve(cwd, nameOrPath) : path.join(BUILTIN_PROMPTS_DIR, nameOrPath);
  const configFile = path.join(dir, 'prompt.json');
  if (!existsSync(configFile)) {
    throw new HangbenchError(
      'CONFIG',
      `--prompt ${nameOrPath}: no ${configFile}; built-in prompts: ${listBuiltinPrompts().join(', ')}`,
    );
  }
  const parsed = PromptConfigSchema.safeParse(readJson(configFile));
  if (!parsed.success)
    throw new HangbenchError('CONFIG', `${configFile}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  const config = parsed.data;
  const load = (file: string, known: readonly string[]) => {
    const full = path.resolve(dir, file);
    if (!existsSync(full))
      throw new HangbenchError('CONFIG', `${configFile}: the template file ${full} does not exist`);
    return compileTemplate(readFileSync(full, 'utf8').trimEnd(), full, known);
  };
  return {
    name: path.basename(dir),
    description: config.description,
    system: load(config.system, []),
    task: load(config.task, TASK_PLACEHOLDERS),
    tick: load(config.tick, TICK_PLACEHOLDERS),
    tickDelivery: config.tickDelivery,
    tickTokens: config.tickTokens === 'default' ? DEFAULTS.tickTokens : (config.tickTokens ?? null),
  };
}

export function listBuiltinPrompts(): string[] {
  if (!existsSync(BUILTIN_PROMPTS_DIR)) return [];
  return readdirSync(BUILTIN_PROMPTS_DIR)
    .filter((name) => existsSync(path.join(BUILTIN_PROMPTS_DIR, name, 'prompt.json')))
    .sort();
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new HangbenchError('CONFIG', `${file}: not valid JSON: ${(error as Error).message}`);
  }
}
