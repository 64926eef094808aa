import type http from 'node:http';
import type { WireApi } from './api/index.js';
import type { BodyCapture } from './proxy-body.js';

/** Request headers passed on as they are (the key is replaced, everything else the endpoint does not need is dropped). */
const PASSED = ['content-type', 'accept', 'anthropic-version', 'anthropic-beta'];
/** The agent's leading version segment, replaced by the upstream's path: /v1 (chat, Responses, Messages), /v1beta (Gemini). */
const VERSION = /^\/v1(?:beta|alpha)?(?=\/|$)/;

export interface ForwardOptions {
  readonly upstream: string;
  readonly url: URL;
  readonly method: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly api: WireApi;
  readonly apiKey: string | undefined;
  /** no byte from the endpoint for this long (headers, or between chunks): abandoned. */
  readonly idleMs: number;
  readonly response: http.ServerResponse;
  readonly capture: BodyCapture;
}

/** How a forwarded call went: answered (perhaps with its stream broken off), or failed before any answer was sent. */
export type ForwardResult =
  | { readonly kind: 'answered'; readonly status: number; readonly broken?: string }
  | { readonly kind: 'failed'; readonly status: number; readonly message: string };

/**
 * One call to the real endpoint: the API's own auth header with the real key, the answer streamed to the agent as it
 * comes (waiting for the agent to drain it) and copied into `capture`. One AbortController ends it, first reason wins:
 * the idle timeout, or the agent going away. An endpoint that resets mid-stream ends the agent's stream with an error
 * event in the API's own shape.
 */
export async function forward(options: ForwardOptions): Promise<ForwardResult> {
  const { url, api, response } = options;
  const search = new URLSearchParams(url.search);
  search.delete('key');
  const query = search.toString();
  const target = `${options.upstream.replace(/\/+$/, '')}${url.pathname.replace(VERSION, '')}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = {};
  for (const name of PASSED) {
    const value = options.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  headers['content-type'] ??= 'application/json';
  if (options.apiKey) Object.assign(headers, api.upstreamAuth(options.apiKey));

  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const idle = (): void => {
    clearTimeout(timer);
    timer = setTimeout(
      () => abort.abort(new Error(`no byte from the endpoint for ${options.idleMs} ms`)),
      options.idleMs,
    );
  };
  const gone = (): void => {
    if (!response.writableFinished) abort.abort(new Error('the agent closed the connection'));
  };
  response.on('close', gone);
  idle();
  try {
    let upstream: Response;
    try {
      upstream = await fetch(target, {
        method: options.method,
        headers,
        signal: abort.signal,
        ...(options.method === 'GET' || options.method === 'HEAD' ? {} : { body: options.body }),
      });
    } catch (error) {
      const reason = abort.signal.aborted ? (abort.signal.reason as Error).message : (error as Error).message;
      return {
        kind: 'failed',
        status: abort.signal.aborted ? 504 : 502,
        message: `hangbench model proxy: the endpoint did not answer: ${reason}`,
      };
    }
    idle();
    if (response.destroyed) {
      // best-effort cleanup: the agent has gone, and the answer says so
      await upstream.body?.cancel().catch(() => undefined);
      return { kind: 'answered', status: upstream.status, broken: 'the agent closed the connection before the answer' };
    }
    const type = upstream.headers.get('content-type') ?? 'application/json';
    response.writeHead(upstream.status, { 'content-type': type, 'cache-control': 'no-cache' });
    if (!upstream.body) return { kind: 'answered', status: upstream.status };
    try {
      for await (const chunk of upstream.body) {
        idle();
        const buffer = Buffer.from(chunk as Uint8Array);
        options.capture.add(buffer);
        if (!response.write(buffer) && !response.destroyed) await drained(response);
        if (response.destroyed) throw new Error('the agent closed the connection');
      }
    } catch (error) {
      const reason = abort.signal.aborted ? (abort.signal.reason as Error).message : (error as Error).message;
      const broken = `the stream broke off after ${options.capture.bytes} bytes: ${reason}`;
      if (!response.destroyed && type.includes('event-stream'))
        response.write(api.streamError(`hangbench model proxy: ${broken}`));
      return { kind: 'answered', status: upstream.status, broken };
    }
    return { kind: 'answered', status: upstream.status };
  } finally {
    clearTimeout(timer);
    response.off('close', gone);
  }
}

function drained(response: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
