import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDurationHistory } from '../../src/run/duration-history.js';
import { FIXED_OVERHEAD_MS, historyKey } from '../../src/run/expected-duration.js';

async function saveRun(
  results: string,
  name: string,
  timeScale: number,
  attempts: ReadonlyArray<{ caseId: string; wallMs: number; outcome?: string }>,
  ageSeconds: number,
) {
  const dir = path.join(results, name);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'summary.json');
  const saved = {
    options: { timeScale },
    attempts: attempts.map((attempt) => ({ variant: 'baseline-10s', outcome: 'completed', ...attempt })),
  };
  await writeFile(file, JSON.stringify(saved));
  const when = new Date(Date.now() - ageSeconds * 1000);
  await utimes(file, when, when);
  return dir;
}

describe('loadDurationHistory', () => {
  it('learns durations at time scale 1 from earlier summaries, newest first, skipping errors, the current run and junk', async () => {
    const results = await mkdtemp(path.join(tmpdir(), 'hangbench-history-'));
    await saveRun(results, 'old', 1, [{ caseId: 'a', wallMs: 61_500 }], 100);
    await saveRun(
      results,
      'new',
      0.5,
      [
        { caseId: 'a', wallMs: 11_500 },
        { caseId: 'b', wallMs: 9_000, outcome: 'error' },
      ],
      10,
    );
    const current = await saveRun(results, 'current', 1, [{ caseId: 'a', wallMs: 1_000_000 }], 0);
    await mkdir(path.join(results, 'broken'));
    await writeFile(path.join(results, 'broken', 'summary.json'), '{ not json');
    const history = await loadDurationHistory(results, current);
    expect(history.get(historyKey('a', 'baseline-10s'))).toEqual([
      (11_500 - FIXED_OVERHEAD_MS) / 0.5,
      61_500 - FIXED_OVERHEAD_MS,
    ]);
    expect(history.has(historyKey('b', 'baseline-10s'))).toBe(false);
  });

  it('is empty for a results folder that does not exist yet', async () => {
    expect((await loadDurationHistory(path.join(tmpdir(), 'hangbench-no-such-results'))).size).toBe(0);
  });
});
