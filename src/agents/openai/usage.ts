import type { ChatCompletion, ChatCompletionMessage } from 'openai/resources/chat/completions';
import type { TokenUsage } from '../protocol.js';
import { countTokens } from '../tokens.js';

/** Tokens of one response from its `usage`; counted with o200k (and flagged) when the endpoint sends none. */
export function usageOf(
  response: ChatCompletion,
  estimatePrompt: () => number,
  message: ChatCompletionMessage,
): TokenUsage & { readonly estimated: boolean } {
  const usage = response.usage;
  if (usage) {
    return {
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
      estimated: false,
    };
  }
  const completion = countTokens((message.content ?? '') + JSON.stringify(message.tool_calls ?? []));
  return { promptTokens: estimatePrompt(), completionTokens: completion, cachedTokens: 0, estimated: true };
}
