import { randomBytes } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { DEFAULTS } from '../../defaults.js';
import { withDeadline } from '../../types/deadline.js';
import { countTokens, type TokenUsage } from '../tokens.js';
import type { ProbeSpec } from './adapter.js';
import { apiFor, JSON_TYPE, SSE_TYPE, type ModelApi, type Refusal, type WireApi } from './api/index.js';
import { callsTool } from './final-answer.js';
import { payloads, usageOf } from './model-usage.js';
import { decide, type ProbeContext, type ProbeStep } from './probe/policy.js';
import { BodyCapture, captured, writeBody } from './proxy-body.js';
import { forward } from './upstream.js';

export type { ModelApi } from './api/index.js';

/** The probe model's decision on one call, as the trace records it. */
export interface ProbeRecord {
  readonly step: ProbeStep;
  readonly tool: string | null;
  readonly reason: string;
}

/** What the proxy tells the attempt: one call each way, the budget running out, a body the results folder refused. */
export interface ModelProxyEvents {
  /** `body` is the parsed request (null when it is not JSON): its file is written in the background. */
  request(call: {
    request: number;
    api: ModelApi;
    path: string;
    model: string | null;
    stream: boolean;
    bytes: number;
    bodyFile: string;
    cutBytes?: number;
    body: unknown;
  }): void;
  response(call: {
    request: number;
    status: number;
    usage: TokenUsage;
    tokensFrom: 'usage' | 'counted';
    bytes: number;
    latencyMs: number;
    refused?: string;
    broken?: string;
    probe?: ProbeRecord;
    /** the answer called no tool, to a call that offered tools: the agent's final answer. */
    final?: boolean;
    bodyFile: string;
    cutBytes?: number;
  }): void;
  /** the first call refused for the token budget. */
  overBudget(value: number, limit: number): void;
  /** a body write the disk refused: the attempt's results-fault path. */
  fault?(error: NodeJS.ErrnoException): void;
}

/** `--model probe`: the proxy answers itself with the probe policy for this CLI and case. */
export interface ProbeOptions extends ProbeContext {
  readonly spec: ProbeSpec;
}

export interface ModelProxyOptions {
  /** the Unix socket to listen on (host side; the sandbox reaches it through the bridge). */
  readonly socketPath: string;
  /** the real endpoint, e.g. https://api.openai.com/v1 (its path replaces the agent's leading /v1 or /v1beta); null with the probe. */
  readonly upstream: string | null;
  /** the real key: sent upstream in the API's own header, never to the agent. */
  readonly apiKey: string | undefined;
  readonly tokenBudget: number;
  /** request and response bodies go here, one file each. */
  readonly bodyDir: string;
  readonly events: ModelProxyEvents;
  readonly probe?: ProbeOptions;
  readonly upstreamIdleMs?: number;
  readonly bodyCapBytes?: number;
}

/** The base path agents are configured with: `http://127.0.0.1:<port>/v1`. */
export const AGENT_BASE_PATH = '/v1';
const NO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };

/** One call in flight: what a failure anywhere in its handling needs to answer and record it. */
interface Call {
  readonly number: number;
  readonly started: number;
  api: WireApi;
  stream: boolean;
  responseFile: string;
  answered: boolean;
}

/**
 * The model proxy of one attempt: an HTTP server on a Unix socket that speaks each CLI's own wire API (OpenAI chat and
 * Responses, Anthropic Messages, Gemini), forwards each call to the real endpoint with the real key — or, with the probe
 * model, answers it itself — streams the answer back as it comes, records both sides (capped), counts tokens from the
 * API's own usage, and answers with an error in the API's own shape once the token budget is spent. Nothing a call does
 * (a client that goes away, an endpoint that resets, a disk that refuses a body) escapes as an exception: it becomes an
 * error answer and a record. The agent holds only `agentKey`, good for this proxy alone.
 */
export class ModelProxy {
  readonly agentKey = `hangbench-proxy-${randomBytes(12).toString('hex')}`;
  readonly #options: ModelProxyOptions;
  readonly #server: http.Server;
  readonly #cap: number;
  /** body writes in flight: a call does not wait for its bodies to reach the disk, close() does. */
  readonly #writes = new Set<Promise<void>>();
  #calls = 0;
  #tokens = 0;
  #refusedOnce = false;

  private constructor(options: ModelProxyOptions) {
    this.#options = options;
    this.#cap = options.bodyCapBytes ?? DEFAULTS.modelProxy.bodyCapBytes;
    this.#server = http.createServer((request, response) => {
      const call: Call = {
        number: ++this.#calls,
        started: performance.now(),
        api: apiFor(new URL(request.url ?? '/', 'http://proxy').pathname),
        stream: false,
        responseFile: '',
        answered: false,
      };
      call.responseFile = path.join(options.bodyDir, `${call.number}.response.txt`);
      response.on('error', () => undefined);
      this.#handle(call, request, response).catch((error: unknown) => this.#failed(call, response, error));
    });
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

  /** Stops listening, ends open calls, and waits (bounded) for the bodies still being written. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    const ms = DEFAULTS.modelProxy.closeMs;
    await withDeadline(new Promise<void>((resolve) => this.#server.close(() => resolve())), {
      what: 'the model proxy to stop listening',
      ms,
    });
    await withDeadline(this.written(), { what: 'the model bodies to be written', ms });
  }

  /** Resolves once every body write started so far has ended (written, or refused and reported). */
  async written(): Promise<void> {
    await Promise.all(this.#writes);
  }

  /** A body to the attempt's model/ folder, in the background: a refused write goes to the results-fault path. */
  #write(file: string, capture: BodyCapture): void {
    const write = writeBody(file, capture, (error) => this.#fault(error));
    this.#writes.add(write);
    void write.finally(() => this.#writes.delete(write));
  }

  /** One call: recorded as it came, then refused (key, budget, no endpoint), answered by the probe model, or forwarded. */
  async #handle(call: Call, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const { body, url, parsed } = await this.#receive(call, request);
    const { events } = this.#options;
    if (keyOf(request, url) !== this.agentKey)
      return this.#refuse(call, response, 401, 'hangbench model proxy: unknown key', 'proxy_key');
    if (this.#tokens >= this.#options.tokenBudget) {
      if (!this.#refusedOnce) events.overBudget(this.#tokens, this.#options.tokenBudget);
      this.#refusedOnce = true;
      return this.#refuse(
        call,
        response,
        400,
        `hangbench: the attempt's token budget of ${this.#options.tokenBudget} is spent (${this.#tokens} used)`,
        'token_budget',
      );
    }
    if (this.#options.probe) return this.#probe(call, response, this.#options.probe, url, parsed, body);
    if (this.#options.upstream === null)
      return this.#refuse(
        call,
        response,
        502,
        'hangbench model proxy: no endpoint (not the probe model, and no --base-url)',
        'upstream',
      );
    const offered = parsed !== null && call.api.tools(parsed).length > 0;
    return this.#forwardUpstream(call, request, response, { upstream: this.#options.upstream, url, body, offered });
  }

  /** Reads the call's body and records the request (its body to the model/ folder): the body, its URL and its JSON. */
  async #receive(
    call: Call,
    request: http.IncomingMessage,
  ): Promise<{ body: string; url: URL; parsed: ReturnType<typeof parseJson> }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://proxy');
    const { api } = call;
    const parsed = parseJson(body);
    call.stream = api.stream(url, parsed);
    const requestFile = path.join(this.#options.bodyDir, `${call.number}.request.json`);
    const requestBody = captured(body, this.#cap, 0);
    this.#write(requestFile, requestBody);
    const { events } = this.#options;
    const model = api.model(url, parsed);
    events.request({
      request: call.number,
      api: api.name,
      path: url.pathname,
      model,
      stream: call.stream,
      bytes: requestBody.bytes,
      bodyFile: requestFile,
      ...cut(requestBody),
      body: parsed,
    });
    return { body, url, parsed };
  }

  /** The call to the real endpoint, its answer streamed back to the agent, recorded, and its tokens counted. */
  async #forwardUpstream(
    call: Call,
    request: http.IncomingMessage,
    response: http.ServerResponse,
    { upstream, url, body, offered }: { upstream: string; url: URL; body: string; offered: boolean },
  ): Promise<void> {
    const { api } = call;
    const answer = new BodyCapture(this.#cap, DEFAULTS.modelProxy.usageTailBytes);
    const result = await forward({
      upstream,
      url,
      method: request.method ?? 'POST',
      headers: request.headers,
      body,
      api,
      apiKey: this.#options.apiKey,
      idleMs: this.#options.upstreamIdleMs ?? DEFAULTS.modelProxy.upstreamIdleMs,
      response,
      capture: answer,
    });
    if (result.kind === 'failed') return this.#refuse(call, response, result.status, result.message, 'upstream');
    // Recorded before the end reaches the agent, so the trace has the response before anything the agent does with it.
    this.#write(call.responseFile, answer);
    const kept = answer.forUsage();
    const { usage, from } = usageOf(api, body, kept);
    // A text answer to a call that offered tools: the agent's final word (a title or routing call offers none).
    const final = offered && !callsTool(payloads(kept));
    this.#tokens += usage.promptTokens + usage.completionTokens;
    call.answered = true;
    const latencyMs = performance.now() - call.started;
    const broken = result.broken ? { broken: result.broken } : {};
    const bytes = answer.bytes;
    this.#options.events.response({
      request: call.number,
      status: result.status,
      usage,
      tokensFrom: from,
      bytes,
      latencyMs,
      final,
      bodyFile: call.responseFile,
      ...cut(answer),
      ...broken,
    });
    if (!response.destroyed) response.end();
  }

  /** The probe model: the next step of its policy, in the API the CLI called, with tokens counted as a model's would be. */
  async #probe(
    call: Call,
    response: http.ServerResponse,
    probe: ProbeOptions,
    url: URL,
    parsed: Record<string, unknown> | null,
    body: string,
  ): Promise<void> {
    const { api } = call;
    if (api.name === 'other' || parsed === null) {
      if (call.api.name === 'other' && (response.req.method === 'HEAD' || response.req.method === 'GET'))
        return this.#answer(call, response, 200, '', JSON_TYPE, NO_USAGE, {
          step: 'aside',
          tool: null,
          reason: `${response.req.method} ${url.pathname}: an empty answer`,
        });
      return this.#refuse(
        call,
        response,
        404,
        `hangbench probe model: ${url.pathname} is not a model call it answers`,
        'proxy_error',
      );
    }
    const decision = decide(probe.spec, api.tools(parsed), api.exchanges(parsed), probe);
    const model = api.model(url, parsed) ?? 'probe';
    const written =
      'call' in decision.reply ? `${decision.reply.call}${JSON.stringify(decision.reply.args)}` : decision.reply.text;
    const usage = { promptTokens: countTokens(body), completionTokens: countTokens(written), cachedTokens: 0 };
    const text = api.reply(decision.reply, call.stream, { model, n: call.number, usage });
    this.#tokens += usage.promptTokens + usage.completionTokens;
    return this.#answer(call, response, 200, text, call.stream ? SSE_TYPE : JSON_TYPE, usage, {
      step: decision.step,
      tool: 'call' in decision.reply ? decision.reply.call : null,
      reason: decision.reason,
    });
  }

  #answer(
    call: Call,
    response: http.ServerResponse,
    status: number,
    text: string,
    type: string,
    usage: TokenUsage,
    probe: ProbeRecord,
  ): void {
    const answer = captured(text, this.#cap, 0);
    this.#write(call.responseFile, answer);
    call.answered = true;
    this.#options.events.response({
      request: call.number,
      status,
      usage,
      tokensFrom: 'counted',
      bytes: answer.bytes,
      latencyMs: performance.now() - call.started,
      probe,
      final: probe.step === 'finish',
      bodyFile: call.responseFile,
      ...cut(answer),
    });
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache' }).end(text);
  }

  #refuse(call: Call, response: http.ServerResponse, status: number, message: string, why: Refusal): void {
    const text = call.api.error(status, message, why);
    this.#write(call.responseFile, captured(text, this.#cap, 0));
    call.answered = true;
    this.#options.events.response({
      request: call.number,
      status,
      usage: NO_USAGE,
      tokensFrom: 'counted',
      bytes: Buffer.byteLength(text),
      latencyMs: performance.now() - call.started,
      refused: message,
      bodyFile: call.responseFile,
    });
    if (response.headersSent) response.end(call.stream ? call.api.streamError(message) : undefined);
    else response.writeHead(status, { 'content-type': JSON_TYPE }).end(text);
  }

  /** A bug or a broken listener in the handling of one call: an error answer in the caller's API shape and a record, never a crash. */
  #failed(call: Call, response: http.ServerResponse, error: unknown): void {
    const message = `hangbench model proxy: internal error: ${error instanceof Error ? error.message : String(error)}`;
    try {
      if (!response.headersSent)
        response.writeHead(500, { 'content-type': JSON_TYPE }).end(call.api.error(500, message, 'proxy_error'));
      else response.end(call.stream ? call.api.streamError(message) : undefined);
    } catch {
      response.destroy();
    }
    if (call.answered) return;
    call.answered = true;
    try {
      this.#options.events.response({
        request: call.number,
        status: 500,
        usage: NO_USAGE,
        tokensFrom: 'counted',
        bytes: 0,
        latencyMs: performance.now() - call.started,
        refused: message,
        bodyFile: call.responseFile,
      });
    } catch {
      // the record is what failed: the answer above is all that can be done
    }
  }

  #fault(error: NodeJS.ErrnoException): void {
    this.#options.events.fault?.(error);
  }
}

function cut(capture: BodyCapture): { cutBytes?: number } {
  return capture.cutBytes > 0 ? { cutBytes: capture.cutBytes } : {};
}

/** The agent's key, in whichever header its API puts it: a bearer token, Anthropic's x-api-key, Gemini's x-goog-api-key or `?key=`. */
function keyOf(request: http.IncomingMessage, url: URL): string | undefined {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return bearer ?? header('x-api-key') ?? header('x-goog-api-key') ?? url.searchParams.get('key') ?? undefined;
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
