import type { ChatCompletionFunctionTool, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { ActionSchema, type Action, type ActionType } from '../../types/actions.js';

const DESCRIPTIONS: Record<ActionType, string> = {
  run: 'Start a shell command in the project folder. While it runs, monitor reports on it may arrive as the result of this call or of your next wait; where run returns at once with the command id, use poll and wait. Only one foreground command at a time; background: true returns at once.',
  wait: 'Let a running command keep going: returns at its next monitor report, at its exit, after timeout seconds (with its status), or once its output has been still for until_quiet seconds.',
  poll: 'Get the status of a running command now: its new output and what its processes are doing.',
  kill: 'Interrupt a running command and every process it started (SIGINT by default, escalating to SIGKILL).',
  input: 'Type into the running command: text, then named keys (e.g. ["enter"]); eof: true closes its stdin.',
  read: 'Read a file of the project (path relative to the project folder).',
  write: 'Create or overwrite a file of the project with the given content.',
  edit: 'Replace the text old, which must occur exactly once in the file, with new.',
  finish: 'End the task with a short summary of the cause and the fix.',
};

const ACTION_TYPES = ActionSchema.options.map((option) => option.shape.type.value);

/** JSON Schema of one action's arguments (the action without its `type`), derived from ActionSchema. */
function argumentsSchema(type: ActionType): Record<string, unknown> {
  const option = ActionSchema.options.find((candidate) => candidate.shape.type.value === type);
  if (!option) throw new Error(`no action ${type}`);
  const {
    $schema: _schema,
    properties,
    required,
    ...rest
  } = z.toJSONSchema(option, { io: 'input' }) as {
    $schema?: string;
    properties: Record<string, unknown>;
    required?: string[];
  };
  const { type: _type, ...fields } = properties;
  const stillRequired = (required ?? []).filter((name) => name !== 'type');
  return { ...rest, properties: fields, ...(stillRequired.length > 0 ? { required: stillRequired } : {}) };
}

/** One function tool per agent action. */
export const ACTION_TOOLS: readonly ChatCompletionFunctionTool[] = ACTION_TYPES.map((type) => ({
  type: 'function',
  function: { name: type, description: DESCRIPTIONS[type], parameters: argumentsSchema(type) },
}));

export type ParsedToolCall =
  { readonly id: string; readonly action: Action } | { readonly id: string; readonly error: string };

/** A tool call becomes an action, or an error the model is shown (never a crash): unknown tool, bad JSON, wrong fields. */
export function parseToolCall(call: ChatCompletionMessageToolCall): ParsedToolCall {
  if (call.type !== 'function')
    return {
      id: call.id,
      error: `unsupported tool call type "${call.type}"; call one of the functions ${ACTION_TYPES.join(', ')}`,
    };
  const name = call.function.name;
  if (!(ACTION_TYPES as readonly string[]).includes(name)) {
    return { id: call.id, error: `unknown tool "${name}"; the tools are ${ACTION_TYPES.join(', ')}` };
  }
  const type = name as ActionType;
  const expected = `expected arguments (JSON Schema): ${JSON.stringify(argumentsSchema(type))}`;
  let args: unknown;
  try {
    args = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
  } catch (error) {
    return {
      id: call.id,
      error: `the arguments of ${type} are not valid JSON (${(error as Error).message}); ${expected}`,
    };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { id: call.id, error: `the arguments of ${type} must be a JSON object; ${expected}` };
  }
  const parsed = ActionSchema.safeParse({ ...args, type });
  if (!parsed.success)
    return {
      id: call.id,
      error: `invalid arguments for ${type}: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}; ${expected}`,
    };
  return { id: call.id, action: parsed.data };
}
