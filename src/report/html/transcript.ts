import type { TraceEvent } from '../../types/events.js';

export interface TranscriptLine {
  readonly t: number;
  readonly type: string;
  readonly text: string;
}

const clip = (text: string, max = 400): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** One readable line per event a person follows; the bulky ones (output chunks, ticks) are left to the timeline. */
export function transcriptLine(event: TraceEvent): TranscriptLine | undefined {
  const line = (text: string): TranscriptLine => ({ t: event.t, type: event.type, text });
  switch (event.type) {
    case 'attempt.start':
      return line(
        `${event.agent} on ${event.caseId} (${event.kind}, ${event.class}) · ${event.mechanism} · budgets ${event.budgets.tokens} tokens, ${Math.round(event.budgets.wallMs)} ms wall, ${Math.round(event.budgets.interruptMs)} ms to interrupt`,
      );
    case 'action':
      return line(
        `${event.action.type} ${clip(JSON.stringify(Object.fromEntries(Object.entries(event.action).filter(([name]) => name !== 'type'))))}`,
      );
    case 'action.result':
      return line(`${event.ok ? 'ok' : 'refused'}: ${clip(event.message)}`);
    case 'command.start':
      return line(`#${event.commandId} started: ${event.command}${event.background ? ' (background)' : ''}`);
    case 'command.exit':
      return line(
        `#${event.commandId} exited ${event.exitCode ?? event.signal ?? '?'} after ${Math.round(event.durationMs)} ms${event.killed ? ' (killed)' : ''}`,
      );
    case 'onset':
      return line(`onset in #${event.commandId}: ${event.trigger}`);
    case 'tick':
      return line(`tick ${event.tickSeq} of #${event.commandId}: ${event.classification}`);
    case 'decision':
      return line(`decided on tick ${event.tickSeq}: ${event.action}`);
    case 'kill':
      return line(`#${event.commandId} killed by ${event.by}: ${event.reason}`);
    case 'file.write':
      return line(`${event.via} ${event.path}`);
    case 'verify':
      return line(`verify ${event.step} ${event.passed ? 'passed' : `failed: ${event.reason}`}`);
    case 'agent.response':
      return line(
        `model turn ${event.turn}: ${event.usage.promptTokens}+${event.usage.completionTokens} tokens, ${Math.round(event.latencyMs)} ms`,
      );
    case 'agent.note':
      return line(`${event.kind}: ${clip(event.message)}`);
    case 'limit':
      return line(`limit ${event.kind}: ${event.value} of ${event.limit}`);
    case 'leak':
      return line(`left running: ${event.processes.map((p) => `${p.pid} ${p.command}`).join(', ')}`);
    case 'error':
      return line(`error in ${event.where}: ${clip(event.message)}`);
    case 'attempt.end':
      return line(`attempt ${event.outcome}${event.clean ? '' : ', not clean'}`);
    case 'output':
    case 'agent.request':
    case 'tick.dropped':
      return undefined;
    default: {
      // events added after this renderer (gates, hints …) still show, as their fields
      const {
        seq: _seq,
        t: _t,
        type,
        ...fields
      } = event as { seq: number; t: number; type: string } & Record<string, unknown>;
      return { t: event.t, type, text: `${type} ${clip(JSON.stringify(fields))}` };
    }
  }
}
