import type { ObservationBody } from '../agents/protocol.js';
import { countTokens } from '../agents/tokens.js';
import type { TickRenderer } from '../monitor/render.js';
import type { Tick } from '../types/process.js';
import type { TraceWriter } from '../trace/writer.js';
import { mergeTicks } from './merge-ticks.js';

/**
 * The one place a tick reaches the agent: the ticks that fired since its last one, merged, rendered by the agent's
 * template, and recorded exactly as shown (with the token count of the text).
 */
export function deliverTicks(commandId: number, ticks: readonly Tick[], source: 'schedule' | 'status', renderTick: TickRenderer, trace: TraceWriter): ObservationBody {
  const tick = mergeTicks(ticks);
  const text = renderTick(tick);
  trace.write({
    type: 'tick',
    commandId,
    tickSeq: tick.seq,
    mergedSeqs: ticks.map((one) => one.seq),
    source,
    elapsedMs: tick.elapsedMs,
    ...(tick.dueMs === undefined ? {} : { dueMs: tick.dueMs }),
    sinceOutputMs: tick.sinceOutputMs,
    totalOutputBytes: tick.totalOutputBytes,
    output: tick.output,
    snapshot: tick.snapshot,
    classification: tick.classification,
    reason: tick.reason,
    rendered: text,
    renderedTokens: countTokens(text),
  });
  return { type: 'tick', tick, text };
}
