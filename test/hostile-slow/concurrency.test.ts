import { availableParallelism } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, RSS_GROWTH_BOUND_BYTES, runCases, runHostile } from './run-hostile.js';

const MiB = 1024 ** 2;

describe('many attempts at once', () => {
  // Warm up (modules, the token counter's ranks) so that the measurement shows what the attempts cost.
  beforeAll(async () => {
    await runHostile(['canary']);
  });

  it('--concurrency 16 with busy loops, endless floods and idle hangs on 2 cores: every attempt scored and clean, the healthy ones untouched', async () => {
    const mix = path.join(PROJECT_ROOT, 'test/fixtures/hostile/mix');
    // Nothing is killed by the agent: all twelve hostile trees run side by side until their 3 s budgets end together.
    const run = await runCases([mix], { concurrency: 16, repeat: 4 });
    const { attempts } = run.result.summary;
    console.log(
      `${attempts.length} attempts at --concurrency 16 on ${availableParallelism()} cores: harness rss peak ${(run.rss.peak / MiB).toFixed(0)} MiB ` +
        `(+${((run.rss.peak - run.rss.before) / MiB).toFixed(0)} MiB)`,
    );
    expect(run.result.problems).toEqual([]);
    expect(attempts).toHaveLength(16);
    expect(attempts.filter((attempt) => attempt.outcome === 'error')).toEqual([]);
    expect(attempts.filter((attempt) => !attempt.scores.clean)).toEqual([]);
    expect(run.leftovers).toEqual([]);
    const byCase = (id: string) => attempts.filter((attempt) => attempt.caseId === id);
    for (const id of ['busy-loop', 'flood-forever', 'idle']) {
      for (const attempt of byCase(id))
        expect({ id, outcome: attempt.outcome, reproduced: attempt.scores.reproduced }).toEqual({
          id,
          outcome: 'limit',
          reproduced: true,
        });
    }
    for (const attempt of byCase('mix-canary'))
      expect(attempt.scores).toMatchObject({ completed: true, false_kill: false, solved: true });
    expect(run.rss.peak - run.rss.before).toBeLessThanOrEqual(RSS_GROWTH_BOUND_BYTES);
  });
});
