import { z } from 'zod';
import { ActionSchema, type Action } from '../../types/actions.js';
import type { AgentContext, LoopAgentFactory, AgentSession, Observation } from '../protocol.js';
import { probeHost, startAgentSandbox, type AgentSandbox } from '../../sandbox/index.js';
import { AgentProcess } from './agent-process.js';

/** A line that reports model usage instead of acting, so token budgets apply to external agents too. */
const UsageLineSchema = z.strictObject({
  type: z.literal('usage'),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative().default(0),
});

const MAX_INVALID_LINES = 5;

type Line =
  | { readonly kind: 'action'; readonly action: Action }
  | { readonly kind: 'usage' }
  | { readonly kind: 'invalid'; readonly message: string };

export interface ExecSettings {
  readonly command: string;
  readonly cwd: string;
  /** names of the harness's variables the agent's process gets (--agent-env); nothing else of its environment. */
  readonly agentEnv: readonly string[];
  /** hosts its egress proxy lets through (--agent-allow-host). */
  readonly allowHosts: readonly string[];
  /**
   * In-process protocol tests only (the CLI and the registry never set it): run the agent unsandboxed with this exact
   * environment, so a test can hand it a script and read its log.
   */
  readonly unjailedEnv?: NodeJS.ProcessEnv;
}

/**
 * `--agent exec --cmd "…"`: an external agent speaking JSON lines (docs/agent-protocol.md).
 * One process per attempt, started on the first observation and stopped when the attempt ends.
 */
export function execAgent(settings: ExecSettings): LoopAgentFactory {
  return { name: 'exec', create: (context) => new ExecSession(settings, context) };
}

class ExecSession implements AgentSession {
  private readonly settings: ExecSettings;
  private readonly context: AgentContext;
  private process: Promise<AgentProcess> | null = null;
  private sandbox: AgentSandbox | null = null;
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
    const agent = await (this.process ??= this.start());
    for (const text of this.hints.splice(0)) agent.send({ type: 'hint', text });
    agent.send(observation);
    for (let invalid = 0; invalid < MAX_INVALID_LINES;) {
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
    const gaveUp = await (await this.process?.catch(() => null))?.stop();
    if (gaveUp) this.context.reporter.note?.('agent', `exec agent stop: ${gaveUp}`);
    // The sandbox ends everything left in it, the holder of the pipes too.
    await this.sandbox?.stop();
  }

  /** The agent's own process, in a sandbox of its own: only the named variables, no network but the egress proxy. */
  private async start(): Promise<AgentProcess> {
    const tags = { HANGBENCH_CASE: this.context.testCase.id, HANGBENCH_REPEAT: String(this.context.repeat) };
    if (this.settings.unjailedEnv !== undefined)
      return new AgentProcess(this.settings.command, this.settings.cwd, { ...this.settings.unjailedEnv, ...tags });
    const named = Object.fromEntries(
      this.settings.agentEnv.flatMap((name) =>
        process.env[name] === undefined ? [] : [[name, process.env[name] as string]],
      ),
    );
    const env = { ...named, ...tags };
    const reporter = this.context.reporter;
    this.sandbox = await startAgentSandbox({
      command: this.settings.command,
      cwd: this.settings.cwd,
      env,
      allowHosts: this.settings.allowHosts,
      onEgress: (record) => reporter.egress?.(record),
      capabilities: await probeHost(),
    });
    if (!this.sandbox.jailed)
      reporter.note?.(
        'agent',
        `exec agent process not jailed (no bubblewrap): own directory and environment only, and it can reach the network around the proxy`,
      );
    return new AgentProcess(this.settings.command, this.sandbox.cwd, this.sandbox.env, this.sandbox.argv);
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
    return {
      kind: 'invalid',
      message: `not a valid action: ${z.prettifyError(action.error).replace(/\n/g, ' ')}; send {"type": …} with one of ${types}`,
    };
  }
}
