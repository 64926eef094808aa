import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';
import { renderAttemptTable, renderClassTable, renderSummaryTable } from '../../src/report/terminal/table.js';
import { shouldUseColor } from '../../src/report/format.js';
import { META, controlAttempt, hangAttempt } from './attempt-fixtures.js';

const ESC = '\u001b[';

const attempts = [
  hangAttempt({ caseId: 'py-pipe-deadlock', repeat: 1 }, { interrupt_latency: 2500 }),
  hangAttempt(
    { caseId: 'go-mutex-deadlock', class: 'lock-deadlock', repeat: 1 },
    { interrupted: false, interrupt_latency: null, solved: false },
  ),
  hangAttempt({ caseId: 'node-stdin', class: 'stdin-wait', outcome: 'error' }, { solved: false }),
  controlAttempt(
    { caseId: 'slow-progress-bar', class: 'progress-bar' },
    { false_kill: true, completed: false, solved: false },
  ),
];

const lineOf = (text: string, needle: string): string => text.split('\n').find((line) => line.includes(needle)) ?? '';
const widest = (text: string): number => Math.max(...text.split('\n').map((line) => line.length));

describe('renderAttemptTable', () => {
  const text = renderAttemptTable(attempts, { color: false });

  it('has one row per attempt with the case ids and marks', () => {
    for (const attempt of attempts) expect(text).toContain(attempt.caseId);
    expect(lineOf(text, 'py-pipe-deadlock')).toMatch(
      /py-pipe-deadlock\s+baseline\s+interval-10s #1\s+hang\s+✓\s+✓\s+✓\s+–\s+–\s+–\s+✓\s+✓\s+✓\s+2\.5s\s+3\s+12\.3s$/,
    );
    expect(lineOf(text, 'go-mutex-deadlock')).toMatch(/hang\s+✓\s+✗\s+✓\s+–\s+–\s+–\s+✓\s+✓\s+✗\s+–\s+3\s+12\.3s$/);
    // a control has nothing to fix: fixed –, its verify is `intact`
    expect(lineOf(text, 'slow-progress-bar')).toMatch(/control\s+–\s+–\s+–\s+✓\s+✗\s+✓\s+✓\s+✓\s+✗\s+–\s+5\s+20s$/);
  });

  it('says when an attempt errored rather than failed', () => {
    expect(lineOf(text, 'node-stdin')).toContain('✗ error');
  });

  it('has no colour codes without colour, and fits 140 columns', () => {
    expect(text).not.toContain(ESC);
    expect(widest(text)).toBeLessThanOrEqual(140);
    expect(text.split('\n')[0]).toMatch(/^case\s+agent\s+variant\s+kind\s+repro/);
  });

  it('colours marks when asked', () => {
    const coloured = renderAttemptTable(attempts, { color: true });
    expect(coloured).toContain(`${ESC}32m✓${ESC}0m`);
    expect(coloured).toContain(`${ESC}31m✗${ESC}0m`);
  });
});

describe('renderSummaryTable and renderClassTable', () => {
  const summary = summarize(
    [...attempts, hangAttempt({ variant: 'backoff-5s', agent: 'openai' }, { interrupt_latency: 9000 })],
    META,
  );

  it('shows solved % with its interval, the rates, latency and cost per group', () => {
    const text = renderSummaryTable(summary, { color: false });
    const row = lineOf(text, 'interval-10s');
    // repro intr fixed diag over hangs, then f.kill done intact over controls
    expect(text.split('\n')[0]).toMatch(
      /solved \[95% CI\]\s+repro\s+intr\s+fixed\s+diag\s+f\.kill\s+done\s+intact\s+latency/,
    );
    expect(row).toMatch(
      /^baseline\s+interval-10s\s+4\s+25% \[5–70\]\s+3\/3\s+2\/3\s+3\/3\s+–\s+1\/1\s+0\/1\s+1\/1\s+2s \/ 2\.5s\s+3\.5\s+1\.1k\s+14\.2s\s+1$/,
    );
    expect(lineOf(text, 'backoff-5s')).toMatch(
      /^openai\s+backoff-5s\s+1\s+100% \[21–100\]\s+1\/1\s+1\/1\s+1\/1\s+–\s+–\s+–\s+–\s+9s \/ 9s/,
    );
    expect(text).not.toContain(ESC);
    expect(widest(text)).toBeLessThanOrEqual(140);
  });

  it('breaks results down by class', () => {
    const text = renderClassTable(summary, { color: false });
    expect(lineOf(text, 'lock-deadlock')).toMatch(
      /^lock-deadlock\s+hang\s+baseline\s+interval-10s\s+1\s+0\/1\s+0\/1\s+–\s+–$/,
    );
    expect(lineOf(text, 'progress-bar')).toMatch(
      /^progress-bar\s+control\s+baseline\s+interval-10s\s+1\s+0\/1\s+–\s+–\s+1$/,
    );
    expect(text.split('\n')[0]).toMatch(/^class\s+kind\s+agent\s+variant\s+n\s+solved\s+intr\s+diag\s+f\.kill$/);
  });
});

describe('shouldUseColor', () => {
  it('is off with NO_COLOR or without a TTY', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor({}, {})).toBe(false);
  });
});
