import { z } from 'zod';
import { ActionSchema, type Action } from '../../types/actions.js';
import type { AgentContext, AgentFactory, AgentSession, Observation } from '../protocol.js';
import { AgentProcess } from './agent-process.js';

/** A line that reports model usage instead of acting, so token budgets apply to external agents too. */
const UsageLineSchema = z.strictObject({
  type: z.literal('usage'),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative().default(0),
});

const MAX_INVALID_LINES = 5;

type Line = { readonly kind: 'action'; readonly action: Action } | { readonly kind: 'usage' } | { readonly kind: 'invalid'; readonly message: string };

export interface ExecSettings {
  readonly command: string;
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * `--agent exec --cmd "…"`: an external agent speaking JSON lines (docs/agent-protocol.md).
 * One process per attempt, started on the first observation and stopped when the attempt ends.
 */
export function execAgent(settings: ExecSettings): AgentFactory {
  return { name: 'exec', create: (context) => new ExecSession(settings, context) };
}

class ExecSession implements AgentSession {
  private readonly settings: ExecSettings;
  private readonly context: AgentContext;
  private process: AgentProcess | null = null;
  private turn = 0;
  private readonly hints: string[] = [];

  constructor(settings: ExecSettings, context: AgentContext) {
    this.settings = settings;
    this.context = context;
  }

  /** Sent as a `hint` line just before the observation it rides on, and not answered (docs/agent-protocol.md). */
  hint(text: string): void {
    this.hints.push(text);
  }

  async next(observation: Observation): Promise<Action> {
    const agent = (this.process ??= this.start());
    for (const text of this.hints.splice(0)) agent.send({ type: 'hint', text });
    agent.send(observation);
    for (let invalid = 0; invalid < MAX_INVALID_LINES; ) {
      const line = (await agent.nextLine()).trim();
      if (line === '') continue;
      const parsed = this.accept(line);
      if (parsed.kind === 'action') return parsed.action;
      if (parsed.kind === 'usage') continue;
      invalid += 1;
      agent.send({ type: 'error', message: parsed.message });
    }
    return { type: 'finish', summary: `exec agent: ${MAX_INVALID_LINES} invalid lines in a row` };
  }

  async close(): Promise<void> {
    await this.process?.stop();
  }

  private start(): AgentProcess {
    const env = {
      ...(this.settings.env ?? process.env),
      HANGBENCH_CASE: this.context.testCase.id,
      HANGBENCH_REPEAT: String(this.context.repeat),
    };
    return new AgentProcess(this.settings.command, this.settings.cwd, env);
  }

  private accept(line: string): Line {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      return { kind: 'invalid', message: `not JSON (${(error as Error).message}): ${line.slice(0, 200)}` };
    }
    const usage = UsageLineSchema.safeParse(value);
    if (usage.success) {
      const { type: _type, ...counts } = usage.data;
      this.turn += 1;
      this.context.reporter.request(this.turn, 0);
      this.context.reporter.response(this.turn, counts, 0);
      return { kind: 'usage' };
    }
    const action = ActionSchema.safeParse(value);
    if (action.success) return { kind: 'action', action: action.data };
    const types = ActionSchema.options.map((option) => option.shape.type.value).join(', ');
    return { kind: 'invalid', message: `not a valid action: ${z.prettifyError(action.error).replace(/\n/g, ' ')}; send {"type": …} with one of ${types}` };
  }
}
