import path from 'node:path';
import { ActionSchema, type Action } from '../../types/actions.js';
import { HangbenchError } from '../../types/errors.js';
import type { AgentContext, LoopAgentFactory, AgentSession, Observation } from '../protocol.js';
import type { ModuleAgentDefinition, ModuleAgentSession } from './define-agent.js';
import { loadAgentModule } from './load-module.js';

/**
 * `--agent ./my-agent.mjs`: the module's default export, in-process. The module is imported once per run; an import
 * that fails, a `create` or `next` that throws and an action that is not one become the attempt's `error`, never a crash.
 * It is never privileged: no OracleView, no Case object.
 */
export function moduleAgent(file: string, cwd: string): LoopAgentFactory {
  const full = path.resolve(cwd, file);
  let loading: Promise<ModuleAgentDefinition> | null = null;
  const load = () => (loading ??= loadAgentModule(full));
  return {
    name: `module:${path.basename(file)}`,
    create: (context) => new ModuleSession(load, context),
  };
}

class ModuleSession implements AgentSession {
  private readonly load: () => Promise<ModuleAgentDefinition>;
  private readonly context: AgentContext;
  private session: Promise<ModuleAgentSession> | null = null;
  private readonly hints: string[] = [];

  constructor(load: () => Promise<ModuleAgentDefinition>, context: AgentContext) {
    this.load = load;
    this.context = context;
  }

  hint(text: string): void {
    this.hints.push(text);
  }

  async next(observation: Observation): Promise<Action> {
    const session = await (this.session ??= this.start());
    for (const text of this.hints.splice(0)) session.hint?.(text);
    const action: unknown = await session.next(observation);
    const parsed = ActionSchema.safeParse(action);
    if (!parsed.success) {
      throw new HangbenchError(
        'AGENT',
        `module agent returned ${JSON.stringify(action) ?? String(action)}, not an action: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'action'}: ${issue.message}`).join('; ')}`,
      );
    }
    return parsed.data;
  }

  async close(): Promise<void> {
    const session = await this.session?.catch(() => null);
    await session?.close?.();
  }

  private async start(): Promise<ModuleAgentSession> {
    const definition = await this.load();
    const { testCase, repeat, signal, budgets, monitor, timeScale, reporter } = this.context;
    const session = await definition.create({
      caseId: testCase.id,
      repeat,
      signal,
      budgets,
      monitor,
      timeScale,
      reporter,
    });
    if (session === null || typeof session !== 'object' || typeof session.next !== 'function') {
      throw new HangbenchError(
        'AGENT',
        `module agent's create() returned ${typeof session}, not a session with next(observation)`,
      );
    }
    return session;
  }
}
