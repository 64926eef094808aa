import type { EventOf, TraceEvent } from '../../types/events.js';
import { transcriptLine, type TranscriptLine } from './transcript.js';

/** What one attempt's timeline shows, taken from its trace alone (times in ms since the attempt started). */
export interface TimelineCommand {
  readonly id: number;
  readonly command: string;
  readonly start: number;
  /** null while it is still running (a live view) or when the trace was cut short. */
  readonly end: number | null;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly isRepro: boolean;
  readonly background: boolean;
}

export interface TimelineTick {
  readonly t: number;
  readonly commandId: number;
  readonly tickSeq: number;
  readonly classification: string;
  readonly reason: string;
  /** the tick exactly as delivered: the trace's `rendered` (the agent's tick template applied by the session). */
  readonly text: string;
  readonly prompt: string | null;
  /** the agent's answer to this tick (the `decision` event that followed), or null. */
  readonly decision: string | null;
}

export interface TimelineKill {
  readonly t: number;
  readonly commandId: number;
  readonly by: string;
  readonly reason: string;
  /** ms from the onset in the same command, when there was one before the kill. */
  readonly sinceOnsetMs: number | null;
  readonly goneMs: number | null;
}

export interface TimelineMark {
  readonly t: number;
  readonly label: string;
  readonly ok?: boolean;
}

export interface AttemptTimeline {
  /** `case/variant/repeat`: the permalink. */
  readonly key: string;
  readonly durationMs: number;
  readonly running: boolean;
  readonly commands: readonly TimelineCommand[];
  readonly ticks: readonly TimelineTick[];
  readonly onsets: readonly TimelineMark[];
  readonly kills: readonly TimelineKill[];
  readonly edits: readonly TimelineMark[];
  readonly verify: readonly TimelineMark[];
  readonly transcript: readonly TranscriptLine[];
}

function decisionsByTick(events: readonly TraceEvent[]): Map<string, string> {
  const decisions = new Map<string, string>();
  for (const event of events)
    if (event.type === 'decision') decisions.set(`${event.commandId}:${event.tickSeq}`, event.action);
  return decisions;
}

/** Builds the timeline of one attempt; a trace without attempt.end (still running) is drawn up to its last event. */
export function buildTimeline(events: readonly TraceEvent[], key: string): AttemptTimeline {
  const decisions = decisionsByTick(events);
  const exits = new Map<number, EventOf<'command.exit'>>();
  const onsetAt = new Map<number, number>();
  for (const event of events) {
    if (event.type === 'command.exit') exits.set(event.commandId, event);
    if (event.type === 'onset' && !onsetAt.has(event.commandId)) onsetAt.set(event.commandId, event.t);
  }
  const end = events.findLast((event) => event.type === 'attempt.end');
  const start = events.find((event): event is EventOf<'attempt.start'> => event.type === 'attempt.start');
  const prompt = start?.variantSpec.agent.agent === 'openai' ? start.variantSpec.agent.prompt : null;
  const commands: TimelineCommand[] = [];
  const ticks: TimelineTick[] = [];
  const onsets: TimelineMark[] = [];
  const kills: TimelineKill[] = [];
  const edits: TimelineMark[] = [];
  const verify: TimelineMark[] = [];
  for (const event of events) {
    if (event.type === 'command.start') {
      const exit = exits.get(event.commandId);
      commands.push({
        id: event.commandId,
        command: event.command,
        start: event.t,
        end: exit ? exit.t : null,
        exitCode: exit?.exitCode ?? null,
        signal: exit?.signal ?? null,
        isRepro: event.isRepro,
        background: event.background,
      });
    } else if (event.type === 'tick') {
      const id = `${event.commandId}:${event.tickSeq}`;
      // The tick event is the tick as delivered: its rendered text is exactly what the agent was shown.
      ticks.push({
        t: event.t,
        commandId: event.commandId,
        tickSeq: event.tickSeq,
        classification: event.classification,
        reason: event.reason,
        text: event.rendered,
        prompt,
        decision: decisions.get(id) ?? null,
      });
    } else if (event.type === 'onset') {
      onsets.push({ t: event.t, label: `onset: ${event.trigger}` });
    } else if (event.type === 'kill') {
      const onset = onsetAt.get(event.commandId);
      kills.push({
        t: event.t,
        commandId: event.commandId,
        by: event.by,
        reason: event.reason,
        sinceOnsetMs: onset !== undefined && onset <= event.t ? event.t - onset : null,
        goneMs: event.goneMs,
      });
    } else if (event.type === 'file.write') {
      edits.push({ t: event.t, label: `${event.via} ${event.path} (${event.bytes} bytes)` });
    } else if (event.type === 'verify') {
      const why = event.passed ? 'passed' : `failed: ${event.reason}`;
      verify.push({ t: event.t, label: `verify ${event.step}: ${event.command} — ${why}`, ok: event.passed });
    }
  }
  return {
    key,
    durationMs: end?.wallMs ?? events.at(-1)?.t ?? 0,
    running: end === undefined,
    commands,
    ticks,
    onsets,
    kills,
    edits,
    verify,
    transcript: events.flatMap((event) => transcriptLine(event) ?? []),
  };
}
