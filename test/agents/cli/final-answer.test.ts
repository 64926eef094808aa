import { describe, expect, it } from 'vitest';
import { callsTool } from '../../../src/agents/cli/final-answer.js';
import { payloads } from '../../../src/agents/cli/model-usage.js';

/** Answers as each API sends them (shapes from the APIs' streaming formats), a tool call and a text answer each. */
const sse = (...events: unknown[]) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');

describe('a final answer: the model called no tool', () => {
  it('chat completions, streamed and not', () => {
    const call = sse(
      { choices: [{ delta: { role: 'assistant' } }] },
      { choices: [{ delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'bash', arguments: '{}' } }] } }] },
      { choices: [{ delta: {}, finish_reason: 'tool_calls' }] },
    );
    const text = sse(
      { choices: [{ delta: { content: 'Done.' } }] },
      { choices: [{ delta: {}, finish_reason: 'stop' }] },
    );
    expect(callsTool(payloads(call))).toBe(true);
    expect(callsTool(payloads(text))).toBe(false);
    expect(callsTool(payloads(JSON.stringify({ choices: [{ message: { content: 'Done.', tool_calls: [] } }] })))).toBe(
      false,
    );
  });

  it('the Responses API', () => {
    const call = sse({
      type: 'response.output_item.added',
      item: { type: 'function_call', name: 'exec_command', arguments: '' },
    });
    const text = sse(
      { type: 'response.output_item.added', item: { type: 'message', role: 'assistant', content: [] } },
      { type: 'response.output_text.delta', delta: 'Done.' },
    );
    expect(callsTool(payloads(call))).toBe(true);
    expect(callsTool(payloads(text))).toBe(false);
  });

  it('Anthropic Messages', () => {
    const call = sse(
      { type: 'message_start', message: { content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'Bash', input: {} } },
    );
    const text = sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    expect(callsTool(payloads(call))).toBe(true);
    expect(callsTool(payloads(text))).toBe(false);
  });

  it('Gemini, streamed (SSE) and as a JSON array', () => {
    const call = {
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'run_shell_command' } }] } }],
    };
    const text = { candidates: [{ content: { role: 'model', parts: [{ text: 'Done.' }] } }] };
    expect(callsTool(payloads(sse(call)))).toBe(true);
    expect(callsTool(payloads(JSON.stringify([text, text])))).toBe(false);
  });
});
