import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { TRACE_SCHEMA_VERSION, TraceEventSchema, type TraceEvent } from '../types/events.js';
import { HangbenchError } from '../types/errors.js';

/** Trace versions this reader understands; a newer writer must bump the version and teach the reader. */
const KNOWN_SCHEMA_VERSIONS: readonly number[] = [TRACE_SCHEMA_VERSION];

function invalid(where: string, message: string, cause?: unknown): HangbenchError {
  return new HangbenchError('TRACE_INVALID', `${where}: ${message}`, cause === undefined ? undefined : { cause });
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(event)'}: ${issue.message}`)
    .join('; ');
}

function checkHeader(raw: unknown, where: string): void {
  const header = raw as { type?: unknown; schemaVersion?: unknown } | null;
  if (typeof header !== 'object' || header === null || header.type !== 'attempt.start') {
    throw invalid(where, `the first event must be attempt.start, got ${JSON.stringify(header?.type ?? header)}`);
  }
  if (typeof header.schemaVersion !== 'number' || !KNOWN_SCHEMA_VERSIONS.includes(header.schemaVersion)) {
    throw invalid(
      where,
      `trace schemaVersion ${JSON.stringify(header.schemaVersion)} is not one this hangbench reads ` +
        `(it reads ${KNOWN_SCHEMA_VERSIONS.join(', ')}); re-score it with the hangbench that wrote it`,
    );
  }
}

/** Parses trace.jsonl text: one zod-validated event a line, blank lines ignored; errors name file and line. */
export function parseTrace(text: string, file = '<trace>'): TraceEvent[] {
  const events: TraceEvent[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const where = `${file}:${index + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      // a last line without its newline is a write torn by a crash: the events before it still stand
      if (index === lines.length - 1 && events.length > 0) break;
      throw invalid(where, `not a JSON event (${(error as Error).message})`, error);
    }
    if (events.length === 0) checkHeader(raw, where);
    const parsed = TraceEventSchema.safeParse(raw);
    if (!parsed.success) throw invalid(where, `malformed event: ${describeIssues(parsed.error)}`, parsed.error);
    events.push(parsed.data);
  }
  if (events.length === 0) throw invalid(file, 'the trace is empty; it must begin with an attempt.start event');
  return events;
}

export async function readTrace(path: string): Promise<TraceEvent[]> {
  return parseTrace(await readFile(path, 'utf8'), path);
}
