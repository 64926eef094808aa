import type { ObservationBody } from '../agents/protocol.js';
import { countTokens } from '../agents/tokens.js';
import type { TickRenderer } from '../monitor/index.js';
import type { Tick } from '../types/process.js';
import type { TraceWriter } from '../trace/writer.js';
import { mergeTicks } from './merge-ticks.js';

/** The fields of a `tick` event that describe the tick itself (the last one merged into it). */
function tickFields(commandId: number, tick: Tick, merged: readonly Tick[], source: 'schedule' | 'status') {
  return {
    type: 'tick',
    commandId,
    tickSeq: tick.seq,
    mergedSeqs: merged.map((one) => one.seq),
    source,
    elapsedMs: tick.elapsedMs,
    ...(tick.dueMs === undefined ? {} : { dueMs: tick.dueMs }),
    ...(tick.cpuWaitMs === undefined ? {} : { cpuWaitMs: tick.cpuWaitMs }),
    sinceOutputMs: tick.sinceOutputMs,
    totalOutputBytes: tick.totalOutputBytes,
    output: tick.output,
    snapshot: tick.snapshot,
    classification: tick.classification,
    reason: tick.reason,
  } as const;
}

/**
 * The one place a tick reaches the agent: the ticks that fired since its last one, merged, rendered by the agent's
 * template, and recorded exactly as shown (with the token count of the text).
 */
export function deliverTicks(
  commandId: number,
  ticks: readonly Tick[],
  source: 'schedule' | 'status',
  renderTick: TickRenderer,
  trace: TraceWriter,
): ObservationBody {
  const tick = mergeTicks(ticks);
  const text = renderTick(tick);
  trace.write({
    ...tickFields(commandId, tick, ticks, source),
    culprit: tick.culprit ?? null,
    rendered: text,
    renderedTokens: countTokens(text),
  });
  return { type: 'tick', tick, text };
}

/**
 * A tick of a command an installed agent started (seen through the shell shim), recorded as it fires: `delivered`
 * when it was written into the command's output (mode `inband`), else what a monitor would have said.
 */
export function recordObservedTick(
  commandId: number,
  tick: Tick,
  text: string,
  delivered: boolean,
  trace: TraceWriter,
): void {
  trace.write({
    ...tickFields(commandId, tick, [tick], 'schedule'),
    culprit: tick.culprit ?? null,
    rendered: delivered ? text : text.trim(),
    renderedTokens: countTokens(text),
    delivered,
  });
}
