import { describe, expect, it } from 'vitest';
import { renderConfusion } from '../../src/report/index.js';
import { summarize, summarizeConfusion } from '../../src/summary/index.js';
import { RunSummarySchema } from '../../src/summary/schema.js';
import { META, controlAttempt, hangAttempt } from './attempt-fixtures.js';

const ATTEMPTS = [
  hangAttempt({ classificationAtEnd: 'blocked-on-pipe' }),
  hangAttempt({ repeat: 2, classificationAtEnd: 'blocked-on-pipe' }),
  hangAttempt({ caseId: 'py-retry', class: 'retry-forever', classificationAtEnd: 'progressing' }),
  hangAttempt({ caseId: 'py-prompt', class: 'stdin-wait', classificationAtEnd: null }),
  controlAttempt({ classificationAtEnd: 'busy-no-output' }, { false_kill: true, completed: false, solved: false }),
  controlAttempt({ caseId: 'slow-build', class: 'slow-progress', classificationAtEnd: 'progressing' }),
  hangAttempt({ variant: 'interval-5s', classificationAtEnd: 'sleeping' }),
];

describe('confusion matrix', () => {
  it('counts each case class against the classification at the kill or exit, per agent/variant', () => {
    const [interval, fast] = summarizeConfusion(ATTEMPTS);
    expect(interval).toEqual({
      agent: 'baseline',
      variant: 'interval-10s',
      columns: ['progressing', 'busy-no-output', 'blocked-on-pipe', 'none'],
      rows: [
        { class: 'pipe-write-block', kind: 'hang', attempts: 2, counts: { 'blocked-on-pipe': 2 }, looksHung: 2 },
        { class: 'retry-forever', kind: 'hang', attempts: 1, counts: { progressing: 1 }, looksHung: 0 },
        { class: 'stdin-wait', kind: 'hang', attempts: 1, counts: { none: 1 }, looksHung: 0 },
        { class: 'quiet-compute', kind: 'control', attempts: 1, counts: { 'busy-no-output': 1 }, looksHung: 1 },
        { class: 'slow-progress', kind: 'control', attempts: 1, counts: { progressing: 1 }, looksHung: 0 },
      ],
      falseKills: { count: 1, total: 2, rate: 0.5, low: expect.any(Number), high: expect.any(Number) },
    });
    expect(fast).toMatchObject({
      variant: 'interval-5s',
      columns: ['sleeping'],
      falseKills: { count: 0, total: 0, rate: null },
    });
  });

  it('is an optional section of summary.json that its schema accepts (older summaries have none)', () => {
    const summary = summarize(ATTEMPTS, META);
    expect(summary.confusion).toHaveLength(2);
    expect(RunSummarySchema.parse(JSON.parse(JSON.stringify(summary)))).toEqual(summary);
    const { confusion: _confusion, ...older } = summary;
    expect(RunSummarySchema.safeParse(older).success).toBe(true);
  });

  it('renders one table per variant with the false-kill rate on controls', () => {
    const text = renderConfusion(summarizeConfusion(ATTEMPTS));
    expect(text).toContain('monitor classification at the kill or exit, by case class — baseline interval-10s');
    expect(text).toMatch(/^class\s+kind\s+n\s+progressing\s+busy-no-output\s+blocked-on-pipe\s+none\s+looks hung$/m);
    expect(text).toMatch(/^pipe-write-block\s+hang\s+2\s+·\s+·\s+2\s+·\s+2\/2$/m);
    expect(text).toMatch(/^quiet-compute\s+control\s+1\s+·\s+1\s+·\s+·\s+1\/1$/m);
    expect(text).toMatch(/^false kills on controls: 1\/2 \(50% \[\d+–\d+\]\)$/m);
    expect(text).toMatch(/— baseline interval-5s\n[\s\S]*\nfalse kills on controls: –$/);
  });
});
