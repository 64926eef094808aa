import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTrace, readTrace } from '../../src/trace/read.js';
import { HangbenchError } from '../../src/types/errors.js';
import { solvedHang } from '../scorers/trace-builder.js';

function catchError(run: () => unknown): HangbenchError {
  try {
    run();
  } catch (error) {
    if (error instanceof HangbenchError) return error;
    throw error;
  }
  throw new Error('expected parseTrace to throw');
}

describe('parseTrace', () => {
  it('round-trips a well-formed trace and ignores blank lines', () => {
    const builder = solvedHang();
    const events = parseTrace(`${builder.toJsonl()}\n\n`, 'trace.jsonl');
    expect(events).toEqual(builder.build());
    expect(events[0]?.type).toBe('attempt.start');
  });

  it('refuses an unknown schemaVersion, naming file and line', () => {
    const [first, ...rest] = solvedHang().toJsonl().split('\n');
    const text = [JSON.stringify({ ...JSON.parse(first ?? '{}'), schemaVersion: 99 }), ...rest].join('\n');
    const error = catchError(() => parseTrace(text, 'results/r1/trace.jsonl'));
    expect(error.code).toBe('TRACE_INVALID');
    expect(error.message).toMatch(
      /^results\/r1\/trace\.jsonl:1: trace schemaVersion 99 is not one this hangbench reads \(it reads 2\)/,
    );
  });

  it('keeps the events before a last line torn by a crash (no newline, not JSON)', () => {
    const builder = solvedHang();
    const events = parseTrace(`${builder.toJsonl()}\n{"seq": 99, "type": "ti`, 'trace.jsonl');
    expect(events).toEqual(builder.build());
  });

  it('refuses a first event that is not attempt.start', () => {
    const text = solvedHang().toJsonl().split('\n').slice(1).join('\n');
    const error = catchError(() => parseTrace(text, 't.jsonl'));
    expect(error.message).toBe('t.jsonl:1: the first event must be attempt.start, got "command.start"');
  });

  it('refuses a line that is not JSON, naming its line', () => {
    const lines = solvedHang().toJsonl().split('\n');
    lines.splice(2, 0, '{"type": "tick", ');
    const error = catchError(() => parseTrace(lines.join('\n'), 'trace.jsonl'));
    expect(error.code).toBe('TRACE_INVALID');
    expect(error.message).toMatch(/^trace\.jsonl:3: not a JSON event/);
  });

  it('refuses an event that fails the schema, naming line and field', () => {
    const lines = solvedHang().toJsonl().split('\n');
    const second = JSON.parse(lines[1] ?? '{}') as Record<string, unknown>;
    lines[1] = JSON.stringify({ ...second, commandId: 'one' });
    const error = catchError(() => parseTrace(lines.join('\n'), 'trace.jsonl'));
    expect(error.message).toMatch(/^trace\.jsonl:2: malformed event: commandId: /);
  });

  it('refuses an unknown event type', () => {
    const lines = solvedHang().toJsonl().split('\n');
    lines[1] = JSON.stringify({ seq: 1, t: 5, type: 'teleport' });
    expect(() => parseTrace(lines.join('\n'), 'x.jsonl')).toThrow(/^x\.jsonl:2: malformed event/);
  });

  it('refuses an empty trace', () => {
    expect(() => parseTrace('\n', 'empty.jsonl')).toThrow('empty.jsonl: the trace is empty');
  });
});

describe('readTrace', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads and parses a trace file, naming the path in errors', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hangbench-trace-'));
    const good = join(dir, 'trace.jsonl');
    await writeFile(good, solvedHang().toJsonl());
    expect((await readTrace(good)).at(-1)?.type).toBe('attempt.end');

    const bad = join(dir, 'bad.jsonl');
    await writeFile(bad, 'nope\n');
    await expect(readTrace(bad)).rejects.toThrow(`${bad}:1: not a JSON event`);
  });
});
