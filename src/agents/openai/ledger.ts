import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { LimitExceeded } from '../../types/errors.js';
import { countTokens } from '../tokens.js';
import type { TokenUsage } from '../protocol.js';

/** Per-message overhead of the chat format (role, separators), as OpenAI's cookbook counts it. */
const MESSAGE_OVERHEAD = 4;

/**
 * Token accounting for the budget check before a call: the next prompt is the last prompt, plus the
 * answer that came back (now part of the conversation), plus the messages added since.
 */
export class TokenLedger {
  private used = 0;
  private lastPrompt = 0;
  private lastCompletion = 0;
  /** messages in the conversation when the last call was made (its answer is the next one). */
  private sentMessages = 0;

  get spent(): number {
    return this.used;
  }

  record(usage: TokenUsage, messagesSent: number): void {
    this.used += usage.promptTokens + usage.completionTokens;
    this.lastPrompt = usage.promptTokens;
    this.lastCompletion = usage.completionTokens;
    this.sentMessages = messagesSent;
  }

  estimatePrompt(messages: readonly ChatCompletionMessageParam[], tools: readonly ChatCompletionTool[]): number {
    if (this.sentMessages === 0) return countTokens(JSON.stringify(tools)) + messagesTokens(messages);
    // The answer to the last call (messages[sentMessages]) is already in lastCompletion.
    return this.lastPrompt + this.lastCompletion + messagesTokens(messages.slice(this.sentMessages + 1));
  }

  /** Throws LimitExceeded when spending the estimated prompt would take the attempt over its token budget. */
  checkBefore(
    messages: readonly ChatCompletionMessageParam[],
    tools: readonly ChatCompletionTool[],
    budget: number,
  ): void {
    const projected = this.used + this.estimatePrompt(messages, tools);
    if (projected > budget)
      throw new LimitExceeded(
        'tokens',
        projected,
        budget,
        `next call estimated before sending: ${this.used} spent + its prompt`,
      );
  }
}

function messagesTokens(messages: readonly ChatCompletionMessageParam[]): number {
  return messages.reduce((sum, message) => sum + MESSAGE_OVERHEAD + countTokens(messageText(message)), 0);
}

function messageText(message: ChatCompletionMessageParam): string {
  const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '');
  const calls = 'tool_calls' in message && message.tool_calls ? JSON.stringify(message.tool_calls) : '';
  return content + calls;
}
