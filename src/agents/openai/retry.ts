import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { DEFAULTS } from '../../defaults.js';

/** Bounded retries with exponential backoff; `retry-after` is obeyed up to a cap. */
export interface RetryPolicy {
  /** retries after the first try; 0 turns retrying off. */
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** a server asking for a longer pause than this gets this much. */
  readonly retryAfterCapMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = DEFAULTS.retry;

export interface FailureKind {
  readonly retryable: boolean;
  readonly status: number | null;
  /** short, credential-free description: `HTTP 429`, `timeout`, `connection failed`. */
  readonly reason: string;
  readonly retryAfterMs: number | null;
}

export function classifyFailure(error: unknown): FailureKind {
  if (error instanceof APIUserAbortError)
    return { retryable: false, status: null, reason: 'aborted', retryAfterMs: null };
  if (error instanceof APIConnectionError) {
    const reason = error instanceof APIConnectionTimeoutError ? 'request timed out' : 'connection failed';
    return { retryable: true, status: null, reason, retryAfterMs: null };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return { retryable, status, reason: `HTTP ${status}`, retryAfterMs: retryAfterMs(error.headers) };
  }
  if (error instanceof SyntaxError)
    return { retryable: true, status: null, reason: `unreadable response (${error.message})`, retryAfterMs: null };
  return {
    retryable: false,
    status: null,
    reason: error instanceof Error ? error.message : String(error),
    retryAfterMs: null,
  };
}

/** `retry-after-ms` (OpenAI's), then `retry-after` in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  const ms = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Delay before retry number `retry` (1-based): the server's wish (capped) or full-jitter exponential backoff. */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  failure: FailureKind,
  random: () => number = Math.random,
): number {
  if (failure.retryAfterMs !== null) return Math.min(failure.retryAfterMs, policy.retryAfterCapMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
