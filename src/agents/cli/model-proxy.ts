import { randomBytes } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { TokenUsage } from '../protocol.js';
import { apiOf, usageOf, type ModelApi } from './model-usage.js';

/** What the proxy tells the attempt: one call each way, and the budget running out. */
export interface ModelProxyEvents {
  request(call: { request: number; api: ModelApi; path: string; model: string | null; stream: boolean; bytes: number; bodyFile: string }): void;
  response(call: { request: number; status: number; usage: TokenUsage; tokensFrom: 'usage' | 'counted'; bytes: number; latencyMs: number; refused?: string; bodyFile: string }): void;
  /** the first call refused for the token budget. */
  overBudget(value: number, limit: number): void;
}

export interface ModelProxyOptions {
  /** the Unix socket to listen on (host side; the sandbox reaches it through the bridge). */
  readonly socketPath: string;
  /** the real endpoint, e.g. https://api.openai.com/v1 (its path prefix replaces the agent's /v1). */
  readonly upstream: string;
  /** the real key: sent upstream, never to the agent. */
  readonly apiKey: string | undefined;
  readonly tokenBudget: number;
  /** request and response bodies go here, one file each. */
  readonly bodyDir: string;
  readonly events: ModelProxyEvents;
}

/** The base path agents are configured with: `http://127.0.0.1:<port>/v1`. */
export const AGENT_BASE_PATH = '/v1';
const CAPTURE_BYTES = 8 * 1024 * 1024;

/**
 * The model proxy of one attempt: an HTTP server on a Unix socket that forwards each call to the real endpoint with the
 * real key, streams the answer back as it comes (SSE included), records both sides, counts tokens, and answers with an
 * error of its own once the attempt's token budget is spent. The agent holds only `agentKey`, good for this proxy alone.
 */
export class ModelProxy {
  readonly agentKey = `hangbench-proxy-${randomBytes(12).toString('hex')}`;
  readonly #options: ModelProxyOptions;
  readonly #server: http.Server;
  #calls = 0;
  #tokens = 0;
  #refusedOnce = false;

  private constructor(options: ModelProxyOptions) {
    this.#options = options;
    this.#server = http.createServer((request, response) => void this.#handle(request, response));
  }

  static async start(options: ModelProxyOptions): Promise<ModelProxy> {
    await mkdir(options.bodyDir, { recursive: true });
    const proxy = new ModelProxy(options);
    await new Promise<void>((resolve, reject) => {
      proxy.#server.once('error', reject);
      proxy.#server.listen(options.socketPath, () => resolve());
    });
    // The sandbox user connects to it.
    chmodSync(options.socketPath, 0o666);
    return proxy;
  }

  get tokens(): number {
    return this.#tokens;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const number = ++this.#calls;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://proxy');
    const api = apiOf(url.pathname);
    const parsed = parseJson(body);
    const requestFile = path.join(this.#options.bodyDir, `${number}.request.json`);
    await writeFile(requestFile, body);
    const { events } = this.#options;
    events.request({ request: number, api, path: url.pathname, model: typeof parsed?.model === 'string' ? parsed.model : null, stream: parsed?.stream === true, bytes: chunks.reduce((sum, c) => sum + c.length, 0), bodyFile: requestFile });
    const responseFile = path.join(this.#options.bodyDir, `${number}.response.txt`);
    const refuse = async (status: number, message: string, code: string): Promise<void> => {
      const text = JSON.stringify({ error: { message, type: code === 'token_budget' ? 'insufficient_quota' : 'proxy_error', code } });
      await writeFile(responseFile, text);
      events.response({ request: number, status, usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, tokensFrom: 'counted', bytes: Buffer.byteLength(text), latencyMs: performance.now() - started, refused: message, bodyFile: responseFile });
      response.writeHead(status, { 'content-type': 'application/json' }).end(text);
    };

    if (request.headers.authorization !== `Bearer ${this.agentKey}`) return refuse(401, 'hangbench model proxy: unknown key', 'proxy_key');
    if (this.#tokens >= this.#options.tokenBudget) {
      if (!this.#refusedOnce) events.overBudget(this.#tokens, this.#options.tokenBudget);
      this.#refusedOnce = true;
      return refuse(400, `hangbench: the attempt's token budget of ${this.#options.tokenBudget} is spent (${this.#tokens} used)`, 'token_budget');
    }
    const rest = url.pathname.startsWith(AGENT_BASE_PATH) ? url.pathname.slice(AGENT_BASE_PATH.length) : url.pathname;
    const target = `${this.#options.upstream.replace(/\/+$/, '')}${rest}${url.search}`;
    let upstream: Response;
    try {
      upstream = await fetch(target, {
        method: request.method ?? 'POST',
        headers: {
          'content-type': request.headers['content-type'] ?? 'application/json',
          accept: request.headers.accept ?? '*/*',
          ...(this.#options.apiKey ? { authorization: `Bearer ${this.#options.apiKey}` } : {}),
        },
        ...(request.method === 'GET' || request.method === 'HEAD' ? {} : { body }),
      });
    } catch (error) {
      return refuse(502, `hangbench model proxy: the endpoint did not answer: ${(error as Error).message}`, 'upstream');
    }
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json', 'cache-control': 'no-cache' });
    const captured: Buffer[] = [];
    let capturedBytes = 0;
    let bytes = 0;
    if (upstream.body) {
      for await (const chunk of upstream.body) {
        const buffer = Buffer.from(chunk as Uint8Array);
        bytes += buffer.length;
        if (capturedBytes < CAPTURE_BYTES) {
          captured.push(buffer);
          capturedBytes += buffer.length;
        }
        response.write(buffer);
      }
    }
    // Recorded before the end reaches the agent, so the trace has the response before anything the agent does with it.
    const text = Buffer.concat(captured).toString('utf8');
    await writeFile(responseFile, text);
    const { usage, from } = usageOf(body, text);
    this.#tokens += usage.promptTokens + usage.completionTokens;
    events.response({ request: number, status: upstream.status, usage, tokensFrom: from, bytes, latencyMs: performance.now() - started, bodyFile: responseFile });
    response.end();
  }
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
