import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/summary/schema.js';
import { evalRun, hangbench } from './run-helpers.js';

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;

/**
 * The summary without what depends on the clock: run id and times, durations, CPU used, tick counts, the classification
 * at the kill (a merged run has no cpuBound: its shards' walls are not one run's).
 */
function withoutTimings(summary: RunSummary) {
  const { runId: _r, startedAt: _s, finishedAt: _f, options: _o, confusion: _c, cpuBound: _b, ...rest } = summary;
  return {
    ...rest,
    groups: rest.groups.map(
      ({ interruptLatencyMs: _l, wallMsPerAttempt: _w, ticksPerAttempt: _t, tokensPerAttempt: _k, ...group }) => group,
    ),
    shellTools: rest.shellTools?.map(({ hangTaxMs: _h, toolReturnMs: _r, ...row }) => row),
    attempts: rest.attempts.map(
      ({
        wallMs: _w,
        cpuMs: _u,
        ticks: _t,
        tokens: _k,
        classificationAtEnd: _c,
        scores: { interrupt_latency: _l, hang_tax_ms: _h, ...scores },
        ...attempt
      }) => ({
        ...attempt,
        scores,
      }),
    ),
  };
}

describe('eval --shard, merge, compare and report on real runs', () => {
  let out = '';
  let full = '';
  let shards: string[] = [];

  beforeAll(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'hangbench-shards-'));
    full = await evalRun(out, 'full');
    shards = [await evalRun(out, 'shard-1', ['--shard', '1/2']), await evalRun(out, 'shard-2', ['--shard', '2/2'])];
  }, 240_000);

  it('runs disjoint slices that together are the unsharded run', async () => {
    const [one, two] = await Promise.all(shards.map((dir) => readJson<RunSummary>(path.join(dir, 'summary.json'))));
    const keys = (summary: RunSummary) => summary.attempts.map((a) => `${a.caseId}/${a.variant}/${a.repeat}`);
    expect(keys(one!).length).toBeGreaterThan(0);
    expect(keys(two!).length).toBeGreaterThan(0);
    expect(keys(one!).filter((key) => keys(two!).includes(key))).toEqual([]);
    expect([...keys(one!), ...keys(two!)].sort()).toEqual(
      keys(await readJson<RunSummary>(path.join(full, 'summary.json'))).sort(),
    );
  });

  it('merges the shards into a run whose summary equals the unsharded one, timings aside', async () => {
    const merged = path.join(out, 'merged');
    const result = await hangbench(['merge', ...shards, '--out', merged]);
    expect(result.stderr).toContain('merged 2 shard(s): 4 attempts');
    expect(result.exitCode).toBe(0);
    const [mergedSummary, fullSummary] = await Promise.all([
      readJson<RunSummary>(path.join(merged, 'summary.json')),
      readJson<RunSummary>(path.join(full, 'summary.json')),
    ]);
    expect(withoutTimings(mergedSummary)).toEqual(withoutTimings(fullSummary));
    expect(mergedSummary.totals).toEqual({ attempts: 4, solved: 4, errors: 0 });
    for (const file of ['report.html', 'report.md', 'junit.xml'])
      expect((await readFile(path.join(merged, file), 'utf8')).length).toBeGreaterThan(100);
  });

  it('refuses a shard given twice, a missing shard and shards that ran other options', async () => {
    const twice = await hangbench(['merge', shards[0]!, shards[0]!, '--out', path.join(out, 'twice')]);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(/are both shard 1\/2/);
    const missing = await hangbench(['merge', shards[0]!, '--out', path.join(out, 'missing')]);
    expect(missing.stderr).toContain('shard 2/2 missing');
    const other = path.join(out, 'shard-2-other');
    await cp(shards[1]!, other, { recursive: true });
    const meta = await readJson<{ options: Record<string, unknown> }>(path.join(other, 'meta.json'));
    await writeFile(
      path.join(other, 'meta.json'),
      JSON.stringify({ ...meta, options: { ...meta.options, timeScale: 0.2 } }),
    );
    const mismatched = await hangbench(['merge', shards[0]!, other, '--out', path.join(out, 'mismatched')]);
    expect(mismatched.exitCode).toBe(2);
    expect(mismatched.stderr).toMatch(/ran other options than .*: timeScale differ/);
  });

  it('refuses --shard outside 1..n', async () => {
    const result = await hangbench(['eval', '--shard', '3/2', '--agent', 'nop']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--shard must be i/n');
  });

  it('compare: a run against itself exits 0; against a copy whose fix fails verify exits 4 naming the case', async () => {
    const same = await hangbench(['compare', full, full]);
    expect(same.stdout).toContain('no regression');
    expect(same.exitCode).toBe(0);
    const degraded = path.join(out, 'degraded');
    await cp(full, degraded, { recursive: true });
    const trace = path.join(degraded, 'node-promise-timer');
    const variants = await readdir(trace);
    const file = path.join(trace, variants[0]!, '1', 'trace.jsonl');
    const text = await readFile(file, 'utf8');
    expect(text).toContain('"type":"verify"');
    await writeFile(file, text.replace(/("type":"verify".*?)"passed":true/g, '$1"passed":false'));
    const rerendered = await hangbench(['report', degraded]);
    expect(rerendered.exitCode).toBe(0);
    const worse = await hangbench(['compare', full, degraded, '--markdown']);
    expect(worse.exitCode).toBe(4);
    expect(worse.stdout).toMatch(/\*\*case\*\* node-promise-timer \(.*\): solved 1\/1 in base, 0\/1 now/);
  });

  it('report re-derives the scores and summary from the traces and re-renders every format', async () => {
    const copy = path.join(out, 'rerender');
    await cp(full, copy, { recursive: true });
    const result = await hangbench(['report', copy]);
    expect(result.exitCode).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => path.basename(line)),
    ).toEqual(['report.md', 'junit.xml', 'report.html']);
    const [again, original] = await Promise.all([
      readJson<RunSummary>(path.join(copy, 'summary.json')),
      readJson<RunSummary>(path.join(full, 'summary.json')),
    ]);
    expect(again.attempts).toEqual(original.attempts);
    expect((await readFile(path.join(copy, 'junit.xml'), 'utf8')).match(/<testcase /g)).toHaveLength(4);
  });
});
