/**
 * Whether a model's answer calls a tool, from its JSON payloads (the body, or each SSE `data:` line), in any of the APIs
 * the proxy speaks: chat's `tool_calls`, Responses' `function_call` / `custom_tool_call` items, Anthropic's `tool_use`
 * blocks, Gemini's `functionCall` parts. An answer that calls none, to a call that offered tools, is a final answer.
 */
export function callsTool(payloads: readonly unknown[]): boolean {
  return payloads.some(holdsCall);
}

const CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'tool_use', 'server_tool_use']);

function holdsCall(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsCall);
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.type === 'string' && CALL_TYPES.has(record.type)) return true;
  if (Array.isArray(record.tool_calls) && record.tool_calls.length > 0) return true;
  if (record.functionCall !== undefined && record.functionCall !== null) return true;
  return Object.values(record).some(holdsCall);
}
