/** One tool call of a conversation a CLI sent its model, with the result it sent back (null: not answered yet). */
export interface ToolExchange {
  readonly callId: string;
  readonly tool: string;
  /** the call's arguments as text (JSON as the model wrote them). */
  readonly args: string;
  readonly result: string | null;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

/** Text parts of a content field: a string, or a list of {type: text, text} blocks (chat, Messages). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((part) =>
      isObject(part) && typeof part.text === 'string'
        ? part.text
        : isObject(part) && typeof part.output === 'string'
          ? part.output
          : text(part),
    )
    .join('');
}

/**
 * The tool calls in a model request body and the results the CLI sent for them, in each wire API: chat completions
 * (`tool_calls` / role `tool`), the Responses API (`function_call`, `custom_tool_call`, `local_shell_call` /
 * `*_output`), Anthropic Messages (`tool_use` / `tool_result`) and Gemini (`functionCall` / `functionResponse`).
 * The body as JSON; anything else has no tool calls.
 */
export function toolExchanges(body: unknown): ToolExchange[] {
  if (!isObject(body)) return [];
  const calls = new Map<string, { tool: string; args: string; result: string | null }>();
  const call = (id: string, tool: string, args: string): void => {
    if (!calls.has(id)) calls.set(id, { tool, args, result: null });
  };
  const answer = (id: string, result: string): void => {
    const found = calls.get(id);
    if (found) found.result = result;
    else calls.set(id, { tool: '', args: '', result });
  };
  // chat completions and Anthropic Messages
  for (const message of list(body.messages)) {
    if (!isObject(message)) continue;
    for (const toolCall of list(message.tool_calls)) {
      if (isObject(toolCall) && isObject(toolCall.function))
        call(text(toolCall.id), text(toolCall.function.name), text(toolCall.function.arguments));
    }
    if (message.role === 'tool' && typeof message.tool_call_id === 'string')
      answer(message.tool_call_id, contentText(message.content));
    for (const block of list(message.content)) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_use') call(text(block.id), text(block.name), text(block.input));
      if (block.type === 'tool_result') answer(text(block.tool_use_id), contentText(block.content));
    }
  }
  // the Responses API
  for (const item of list(body.input)) {
    if (!isObject(item) || typeof item.type !== 'string') continue;
    const id = text(item.call_id ?? item.id);
    if (item.type.endsWith('_output')) answer(id, contentText(item.output));
    else if (item.type === 'function_call' || item.type === 'custom_tool_call')
      call(id, text(item.name), text(item.arguments ?? item.input));
    else if (item.type === 'local_shell_call') call(id, 'local_shell', text(item.action));
  }
  // Gemini: calls and responses pair up by position among those of the same name (ids only in newer versions)
  const pending: Array<{ id: string; tool: string }> = [];
  for (const [turn, content] of list(body.contents).entries()) {
    if (!isObject(content)) continue;
    for (const [index, part] of list(content.parts).entries()) {
      if (!isObject(part)) continue;
      if (isObject(part.functionCall)) {
        const id = typeof part.functionCall.id === 'string' ? part.functionCall.id : `gemini-${turn}-${index}`;
        call(id, text(part.functionCall.name), text(part.functionCall.args));
        pending.push({ id, tool: text(part.functionCall.name) });
      }
      if (isObject(part.functionResponse)) {
        const name = text(part.functionResponse.name);
        const byId = typeof part.functionResponse.id === 'string' ? part.functionResponse.id : null;
        const at = pending.findIndex((one) => (byId === null ? one.tool === name : one.id === byId));
        const id = at >= 0 ? pending.splice(at, 1)[0]!.id : (byId ?? `gemini-${turn}-${index}`);
        answer(id, text(part.functionResponse.response));
      }
    }
  }
  return [...calls].map(([callId, one]) => ({ callId, ...one }));
}
