import { toolExchanges } from '../agents/cli/index.js';
import type { TraceWriter } from '../trace/writer.js';

/** A tool result is kept in the trace whole up to this many characters (a flood's output is not). */
const KEPT_CHARS = 16 * 1024;

/**
 * Each tool result an installed CLI sends its model, recorded the first time a request carries it (`tool.result`):
 * the moment the tool's answer reached the model, and the text exactly as the CLI wrote it. Read from the request body
 * the model proxy saved; a body that is not JSON carries none.
 */
export class ToolResultLog {
  readonly #trace: TraceWriter;
  readonly #seen = new Set<string>();

  constructor(trace: TraceWriter) {
    this.#trace = trace;
  }

  record(request: number, body: unknown): void {
    if (body === null || body === undefined) return;
    for (const exchange of toolExchanges(body)) {
      if (exchange.result === null || this.#seen.has(exchange.callId)) continue;
      this.#seen.add(exchange.callId);
      this.#trace.write({
        type: 'tool.result',
        request,
        callId: exchange.callId,
        tool: exchange.tool,
        args: exchange.args.slice(0, KEPT_CHARS),
        text: exchange.result.slice(0, KEPT_CHARS),
        bytes: Buffer.byteLength(exchange.result),
      });
    }
  }
}
