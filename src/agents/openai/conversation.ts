import type { ChatCompletionMessage, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Action } from '../../types/actions.js';
import { parseToolCall, type ParsedToolCall } from './tools.js';

/**
 * The chat so far and the tool calls in flight. The first call of a reply is carried out; the
 * observation it leads to becomes its tool result; later calls of the same reply run in turn,
 * unless a monitor report comes first (then they are answered "not run"). Every tool call of an
 * assistant message gets exactly one tool message, as the chat format requires.
 */
export class Conversation {
  readonly messages: ChatCompletionMessageParam[];
  private current: string | null = null;
  private queue: ParsedToolCall[] = [];

  constructor(system: string) {
    this.messages = [{ role: 'system', content: system }];
  }

  user(text: string): void {
    this.messages.push({ role: 'user', content: text });
  }

  /** The result of the call being carried out; a user message when none is (the task). */
  answer(text: string): void {
    if (this.current === null) {
      this.user(text);
      return;
    }
    this.messages.push({ role: 'tool', tool_call_id: this.current, content: text });
    this.current = null;
  }

  /** Records the model's reply; returns how many tool calls it made. */
  assistant(message: ChatCompletionMessage): number {
    const calls = message.tool_calls ?? [];
    this.messages.push({
      role: 'assistant',
      content: message.content ?? null,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    });
    this.queue = calls.map(parseToolCall);
    return calls.length;
  }

  /** Answers every queued call with `why` instead of running it. */
  dropQueued(why: string): void {
    for (const call of this.queue.splice(0)) this.messages.push({ role: 'tool', tool_call_id: call.id, content: why });
  }

  /** The next queued call to carry out; invalid ones are answered with their error on the way. */
  nextQueued(reportArrived: boolean): Action | null {
    for (let call = this.queue.shift(); call; call = this.queue.shift()) {
      if (reportArrived) {
        this.messages.push({
          role: 'tool',
          tool_call_id: call.id,
          content: 'not run: a monitor report on the running command came first; call it again if you still want it',
        });
      } else if ('error' in call) {
        this.messages.push({ role: 'tool', tool_call_id: call.id, content: `error: ${call.error}` });
      } else {
        this.current = call.id;
        return call.action;
      }
    }
    return null;
  }
}
