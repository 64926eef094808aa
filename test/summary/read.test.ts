import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRunSummary, readRunSummary } from '../../src/summary/read.js';
import { summarize } from '../../src/summary/summarize.js';
import { RunSummarySchema, type GroupRate, type GroupSummary } from '../../src/summary/schema.js';
import type { AttemptScores } from '../../src/types/scores.js';
import { META } from '../report/attempt-fixtures.js';
import { A, B, CONTROLS } from '../report/variant-fixtures.js';

const current = summarize([...A, ...B, ...CONTROLS], { ...META, seed: 5 });

/** An attempt as versions 1 and 2 scored it: `fixed` was every verify passing, for controls too; no `intact`. */
const oldScores = (attempt: AttemptScores) => {
  const { fixed, intact, ...scores } = attempt.scores;
  return { ...attempt, scores: { ...scores, fixed: attempt.kind === 'hang' ? fixed : intact } };
};
/** A group as versions 1 and 2 wrote it: no `intact`, and rates without `over`. */
const oldGroup = ({ intact: _intact, ...group }: Partial<GroupSummary>) =>
  Object.fromEntries(
    Object.entries(group).map(([key, value]) => [
      key,
      typeof value === 'object' && value !== null && 'over' in value
        ? { ...(value as GroupRate), over: undefined }
        : value,
    ]),
  );

/** The same run as version 1 wrote it: no statistics, comparisons, case matrix, gate/hint rows, pass@k or latency intervals. */
function asVersion1(): Record<string, unknown> {
  const {
    statistics: _s,
    comparisons: _c,
    caseMatrix: _m,
    loop: _l,
    sweep: _w,
    shellTools: _st,
    ...rest
  } = structuredClone(current);
  return {
    ...rest,
    summaryVersion: 1,
    options: { ...rest.options, seed: 5 },
    groups: rest.groups.map(
      ({ passAtK: _p, tokensPerTick: _t, diagnosed: _d, interruptLatencyMs: { count, p50, p90 }, ...group }) => ({
        ...oldGroup(group),
        interruptLatencyMs: { count, p50, p90 },
      }),
    ),
    attempts: rest.attempts.map(oldScores),
  };
}

/** The same run as version 2 wrote it: `fixed` pooled over hangs and controls, one comparison per pair of variants. */
function asVersion2(): Record<string, unknown> {
  const { sweep: _w, shellTools: _st, ...rest } = structuredClone(current);
  return {
    ...rest,
    summaryVersion: 2,
    groups: rest.groups.map(oldGroup),
    comparisons: [
      {
        a: 'x',
        b: 'y',
        pairs: 0,
        solved: { test: 'mcnemar-exact', pairs: 0, both: 0, neither: 0, aOnly: 0, bOnly: 0, p: null, pAdjusted: null },
        latency: null,
      },
    ],
    attempts: rest.attempts.map(oldScores),
  };
}

describe('parseRunSummary', () => {
  it('reads the current version as it was written', () => {
    expect(RunSummarySchema.parse(JSON.parse(JSON.stringify(current)))).toEqual(current);
    expect(parseRunSummary(JSON.parse(JSON.stringify(current)), 'summary.json')).toEqual(current);
  });

  it('reads version 2 by re-summarizing its attempts: a control’s old `fixed` becomes its `intact`, `fixed` counts hangs only', () => {
    const old = asVersion2();
    expect(
      (old.attempts as Array<{ kind: string; scores: { fixed: boolean } }>)
        .filter((a) => a.kind === 'control')
        .every((a) => typeof a.scores.fixed === 'boolean'),
    ).toBe(true);
    const upgraded = parseRunSummary(JSON.parse(JSON.stringify(old)), 'old/summary.json');
    expect(upgraded).toEqual(current);
    expect(upgraded.summaryVersion).toBe(4);
    const controls = upgraded.attempts.filter((attempt) => attempt.kind === 'control');
    expect(controls.every((attempt) => attempt.scores.fixed === null && attempt.scores.intact !== null)).toBe(true);
    expect(upgraded.groups[0]?.fixed).toMatchObject({ over: 'hangs', total: upgraded.groups[0]?.hangAttempts });
  });

  it('reads version 1 by re-summarizing its attempts, with the seed it recorded', () => {
    const upgraded = parseRunSummary(JSON.parse(JSON.stringify(asVersion1())), 'old/summary.json');
    expect(upgraded.summaryVersion).toBe(4);
    expect(upgraded.comparisons).toEqual(current.comparisons);
    expect(upgraded.caseMatrix).toEqual(current.caseMatrix);
    expect(upgraded.groups).toEqual(current.groups);
    expect(upgraded.statistics).toEqual({ seed: 5, resamples: 2000 });
  });

  it('refuses an unknown version, saying which versions it reads and what to do', () => {
    expect(() => parseRunSummary({ ...current, summaryVersion: 5 }, 'run/summary.json')).toThrow(
      /run\/summary\.json: summaryVersion 5 is not one this hangbench reads \(1, 2, 3, 4\); use the hangbench that wrote it/,
    );
    expect(() => parseRunSummary([], 'x.json')).toThrow(/x\.json: summaryVersion undefined/);
  });

  it('names the file and the field of a malformed summary', () => {
    const [first, ...others] = current.comparisons;
    const broken = { ...current, comparisons: [{ ...first, rows: [{ ...first?.rows[0], p: 'small' }] }, ...others] };
    expect(() => parseRunSummary(broken, 'run/summary.json')).toThrow(
      /run\/summary\.json: not a valid summary: .*comparisons\[0\]\.rows\[0\]\.p/,
    );
  });
});

describe('readRunSummary', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('reads a summary.json from disk, and says when the file is not JSON', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hb-summary-'));
    dirs.push(dir);
    const file = path.join(dir, 'summary.json');
    await writeFile(file, JSON.stringify(asVersion1()));
    expect((await readRunSummary(file)).comparisons).toEqual(current.comparisons);
    await writeFile(file, '{"summaryVersion": 2,');
    await expect(readRunSummary(file)).rejects.toThrow(`${file}: not readable as JSON`);
  });
});
