import { setTimeout as sleepFor } from 'node:timers/promises';
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { EndpointError } from '../../types/errors.js';
import { classifyFailure, retryDelayMs, type RetryPolicy } from './retry.js';

export interface Endpoint {
  readonly client: OpenAI;
  /** for messages only; credentials and query strings removed. */
  readonly label: string;
  readonly apiKey: string;
  readonly retry: RetryPolicy;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * One chat completion with our own retry loop (the client's is off) so every retry is reported.
 * Gives up with an EndpointError: an ERROR outcome, apart from the agent failing.
 */
export async function complete(
  endpoint: Endpoint,
  body: ChatCompletionCreateParamsNonStreaming,
  signal: AbortSignal,
  onRetry: (message: string) => void,
): Promise<ChatCompletion> {
  const sleep = endpoint.sleep ?? ((ms, abort) => sleepFor(ms, undefined, { signal: abort }));
  const { maxRetries } = endpoint.retry;
  for (let retry = 0; ; retry += 1) {
    try {
      return await endpoint.client.chat.completions.create(body, { signal, maxRetries: 0 });
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      const failure = classifyFailure(error);
      const detail = redact(serverMessage(error), endpoint.apiKey);
      if (!failure.retryable || retry >= maxRetries) {
        const tries = retry + 1;
        const hint =
          failure.status === 401 || failure.status === 403
            ? ' — check OPENAI_API_KEY (never shown) and --base-url'
            : '';
        throw new EndpointError(
          `model endpoint ${endpoint.label} failed: ${failure.reason}${detail ? ` (${detail})` : ''}${hint}; ${tries} ${tries === 1 ? 'try' : 'tries'}, ${failure.retryable ? 'retries exhausted' : 'not retryable'}`,
          failure.status,
        );
      }
      const delay = retryDelayMs(endpoint.retry, retry + 1, failure);
      onRetry(
        `${failure.reason}${detail ? ` (${detail})` : ''} from ${endpoint.label}; retry ${retry + 1}/${maxRetries} in ${delay}ms${failure.retryAfterMs !== null ? ' (retry-after)' : ''}`,
      );
      await sleep(delay, signal);
    }
  }
}

/** The server's own words, shortened; an auth error's body may echo part of the key, so it is left out. */
function serverMessage(error: unknown): string {
  const status = (error as { status?: unknown }).status;
  if (status === 401 || status === 403) return '';
  const message = error instanceof Error ? error.message : '';
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

function redact(text: string, apiKey: string): string {
  let out = apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text;
  out = out.replace(/\b(sk|key|token)-[A-Za-z0-9_*.-]{4,}/gi, '[redacted]');
  return out.replace(/(authorization|api[-_]?key)\s*[:=]\s*\S+/gi, '$1: [redacted]');
}

/** Origin and path of a base URL: user info and query strings can hold secrets. */
export function endpointLabel(baseURL: string | undefined): string {
  if (!baseURL) return 'https://api.openai.com/v1';
  try {
    const url = new URL(baseURL);
    return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(unparsable base URL)';
  }
}
