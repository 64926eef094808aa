import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRunSummary, readRunSummary } from '../../src/summary/read.js';
import { summarize } from '../../src/summary/summarize.js';
import { RunSummarySchema } from '../../src/summary/schema.js';
import { META } from '../report/attempt-fixtures.js';
import { A, B, CONTROLS } from '../report/variant-fixtures.js';

const current = summarize([...A, ...B, ...CONTROLS], { ...META, seed: 5 });

/** The same run as version 1 wrote it: no statistics, comparisons, case matrix, gate/hint rows, pass@k or latency intervals. */
function asVersion1(): Record<string, unknown> {
  const { statistics: _s, comparisons: _c, caseMatrix: _m, loop: _l, ...rest } = structuredClone(current);
  return {
    ...rest,
    summaryVersion: 1,
    options: { ...rest.options, seed: 5 },
    groups: rest.groups.map(({ passAtK: _p, tokensPerTick: _t, diagnosed: _d, interruptLatencyMs: { count, p50, p90 }, ...group }) => ({
      ...group,
      interruptLatencyMs: { count, p50, p90 },
    })),
  };
}

describe('parseRunSummary', () => {
  it('reads the current version as it was written', () => {
    expect(RunSummarySchema.parse(JSON.parse(JSON.stringify(current)))).toEqual(current);
    expect(parseRunSummary(JSON.parse(JSON.stringify(current)), 'summary.json')).toEqual(current);
  });

  it('reads version 1 by re-summarizing its attempts, with the seed it recorded', () => {
    const upgraded = parseRunSummary(asVersion1(), 'old/summary.json');
    expect(upgraded.summaryVersion).toBe(2);
    expect(upgraded.comparisons).toEqual(current.comparisons);
    expect(upgraded.caseMatrix).toEqual(current.caseMatrix);
    expect(upgraded.groups).toEqual(current.groups);
    expect(upgraded.statistics).toEqual({ seed: 5, resamples: 2000 });
  });

  it('refuses an unknown version, saying which versions it reads and what to do', () => {
    expect(() => parseRunSummary({ ...current, summaryVersion: 3 }, 'run/summary.json')).toThrow(
      /run\/summary\.json: summaryVersion 3 is not one this hangbench reads \(1, 2\); use the hangbench that wrote it/,
    );
    expect(() => parseRunSummary([], 'x.json')).toThrow(/x\.json: summaryVersion undefined/);
  });

  it('names the file and the field of a malformed summary', () => {
    const [first, ...others] = current.comparisons;
    const broken = { ...current, comparisons: [{ ...first, solved: { ...first?.solved, p: 'small' } }, ...others] };
    expect(() => parseRunSummary(broken, 'run/summary.json')).toThrow(/run\/summary\.json: not a valid summary: .*comparisons\[0\]\.solved\.p/);
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
