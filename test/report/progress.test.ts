import { describe, expect, it } from 'vitest';
import { createProgressReporter, finishedLine } from '../../src/report/terminal/progress.js';
import type { AttemptInfo } from '../../src/report/reporters.js';
import { summarize } from '../../src/summary/summarize.js';
import { META, controlAttempt, hangAttempt } from './attempt-fixtures.js';

const info = (caseId: string, repeat = 1): AttemptInfo => ({
  attemptId: `${caseId}#${repeat}`,
  caseId,
  kind: 'hang',
  class: 'pipe-write-block',
  variant: 'baseline-10s',
  agent: 'baseline',
  repeat,
});

function fakeStream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 160, write: (chunk: string) => chunks.push(chunk) } };
}

function fakeClock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('finishedLine', () => {
  it('reads like a log line', () => {
    expect(finishedLine(info('py-pipe-deadlock'), hangAttempt({ variant: 'baseline-10s' }), false)).toBe(
      '✓ py-pipe-deadlock baseline-10s #1 solved 12.3s',
    );
    expect(
      finishedLine(
        info('py-pipe-deadlock', 2),
        hangAttempt({}, { interrupted: false, interrupt_latency: 45_000, fixed: false, solved: false }),
        false,
      ),
    ).toBe('✗ py-pipe-deadlock baseline-10s #2 failed (interrupted late (45s), not fixed) 12.3s');
    expect(
      finishedLine(info('quiet'), controlAttempt({}, { false_kill: true, completed: false, solved: false }), false),
    ).toBe('✗ quiet baseline-10s #1 failed (false kill, not completed) 20s');
    expect(
      finishedLine(info('node-stdin'), hangAttempt({ outcome: 'error', wallMs: 3100 }, { solved: false }), false),
    ).toBe('! node-stdin baseline-10s #1 error 3.1s');
  });
});

describe('progress reporter', () => {
  it('in CI writes one line per finished attempt and a final line, nothing live', () => {
    const { chunks, stream } = fakeStream(false);
    const clock = fakeClock();
    const reporter = createProgressReporter({ stream, live: false, color: false, now: clock.now });
    reporter.onRunStart?.({ runId: 'r', startedAt: META.startedAt, attempts: 1 });
    reporter.onAttemptStart?.(info('py-pipe-deadlock'));
    reporter.onTick?.(info('py-pipe-deadlock'), {} as never);
    clock.advance(65_000);
    const scores = hangAttempt({ variant: 'baseline-10s' });
    reporter.onAttemptEnd?.(info('py-pipe-deadlock'), scores);
    reporter.onRunEnd?.(summarize([scores], META));
    expect(chunks).toEqual([
      '✓ py-pipe-deadlock baseline-10s #1 solved 12.3s\n',
      '1 attempts · 1 solved · 0 errors · 1m5s\n',
    ]);
  });

  it('on a TTY rewrites one status line in place', () => {
    const { chunks, stream } = fakeStream(true);
    const clock = fakeClock();
    const reporter = createProgressReporter({ stream, live: true, color: false, now: clock.now });
    reporter.onRunStart?.({ runId: 'r', startedAt: META.startedAt, attempts: 3 });
    reporter.onAttemptStart?.(info('py-pipe-deadlock'));
    clock.advance(2000);
    reporter.onAttemptStart?.(info('node-stdin'));
    clock.advance(3000);
    reporter.onTick?.(info('node-stdin'), {} as never);
    reporter.onAttemptEnd?.(info('py-pipe-deadlock'), hangAttempt({}, { solved: false, fixed: false }));

    expect(chunks.every((chunk) => chunk.startsWith('\r\u001b[2K') && !chunk.includes('\n'))).toBe(true);
    expect(chunks[3]).toBe(
      '\r\u001b[2K0/3 done · 0 solved · 0 failed · 0 errors · 2 running · 5s │ py-pipe-deadlock baseline-10s #1 5s, node-stdin baseline-10s #1 3s',
    );
    expect(chunks.at(-1)).toBe(
      '\r\u001b[2K1/3 done · 0 solved · 1 failed · 0 errors · 1 running · 5s │ node-stdin baseline-10s #1 3s',
    );

    reporter.onRunEnd?.(summarize([], META));
    expect(chunks.at(-1)).toBe('\r\u001b[2K0 attempts · 0 solved · 0 errors · 5s\n');
  });

  it('cuts the live line to the terminal width', () => {
    const { chunks, stream } = fakeStream(true);
    const reporter = createProgressReporter({
      stream: { ...stream, columns: 40 },
      live: true,
      color: false,
      now: () => 0,
    });
    reporter.onRunStart?.({ runId: 'r', startedAt: META.startedAt, attempts: 100 });
    reporter.onAttemptStart?.(info('a-very-long-case-identifier-indeed'));
    const line = (chunks.at(-1) ?? '').replace('\r\u001b[2K', '');
    expect(line).toHaveLength(39);
    expect(line.endsWith('…')).toBe(true);
  });
});
