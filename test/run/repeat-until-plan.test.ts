import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { mcnemarPower } from '../../src/stats/index.js';
import { RunSummarySchema, type RunSummary } from '../../src/summary/schema.js';
import type { AttemptScores } from '../../src/types/scores.js';

/**
 * `hangbench eval --repeat-until decided` and `hangbench plan`, run as a user runs them (`node bin/hangbench.js`), on
 * small cases at --time-scale 0.1. What they print is checked against the attempts they ran, worked out here: which
 * (case, repeat) pairs disagree, the sign test's e-value from those counts, and the fewest repeats McNemar's exact
 * power (tested against published values in test/stats/power.test.ts) says are enough. So a run that stops too early
 * or too late, favours the wrong side, or plans from the wrong pairs fails, even where a loaded machine leaves the
 * oracle a case unsolved.
 */

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/hangbench.js');
/** Three hangs and a control of the library that the oracle solves in seconds at 0.1 and nop never does. */
const QUICK = ['node-busy-loop', 'bash-tail-follow', 'node-promise-timer', 'ctl-block-buffered'].map((id) =>
  path.join(root, 'cases', `${id}.yaml`),
);
/** A case of the test fixtures that no agent solves: every attempt agrees, in well under a second. */
const NO_SIGNS = path.join(root, 'test/fixtures/cases/good/good-case.yaml');
const ALPHA = 0.05;

function hangbench(args: readonly string[]) {
  return execa('node', [bin, ...args], { cwd: root, reject: false, env: { CI: '1' }, maxBuffer: 1 << 26 });
}

/** The run summary `--json` prints (summary.json's fields, with runDir and problems beside them). */
function printedSummary(stdout: string): RunSummary & { runDir: string } {
  const { runDir, problems: _problems, ...summary } = JSON.parse(stdout) as Record<string, unknown>;
  return { ...RunSummarySchema.parse(summary), runDir: runDir as string };
}

/** (case, repeat) → [a's solved, b's solved], over the attempts of the repeats up to `round`. */
function solvedPairs(attempts: readonly AttemptScores[], a: string, b: string, round = Infinity) {
  const key = (attempt: AttemptScores) => `${attempt.caseId}#${attempt.repeat}`;
  const side = (variant: string) =>
    new Map(
      attempts
        .filter((attempt) => attempt.variant === variant && attempt.repeat <= round)
        .map((attempt) => [key(attempt), attempt.scores.solved]),
    );
  const [left, right] = [side(a), side(b)];
  return [...left].flatMap(([at, x]) => (right.has(at) ? [[x, right.get(at)!] as const] : []));
}

/** The Beta(1, 1) mixture of the sign test's likelihood ratios: 2^n · k! (n − k)! / (n + 1)!, as a running product. */
function mixtureEValue(forA: number, signs: number): number {
  let value = 2 ** signs / (signs + 1);
  // k! (n − k)! / n! = 1 / C(n, k)
  for (let i = 1; i <= forA; i += 1) value *= i / (signs - forA + i);
  return value;
}

describe('eval --repeat-until decided, end to end (oracle against nop, --metric solved, --time-scale 0.1)', () => {
  let printed: RunSummary & { runDir: string };
  let stderr = '';

  beforeAll(async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-until-'));
    const result = await hangbench([
      'eval',
      ...QUICK,
      '--agent',
      'oracle,nop',
      '--repeat-until',
      'decided',
      '--metric',
      'solved',
      '--max-repeat',
      '4',
      '--time-scale',
      '0.1',
      '--concurrency',
      '2',
      '--out',
      out,
      '--run-id',
      'until',
      '--json',
    ]);
    stderr = result.stderr;
    expect(result.exitCode, result.stderr).toBe(0);
    printed = printedSummary(result.stdout);
  }, 300_000);

  it('stops at the first round whose solved pairs reach the e-value 1/α, and favours the side the pairs favour', () => {
    const sequential = printed.sequential!;
    expect(sequential).toMatchObject({ method: 'sign-mixture-e-value', alpha: ALPHA, maxRepeat: 4 });
    expect(sequential.metrics).toEqual(['solved']);
    const [oracle, nop] = ['oracle·interval-10s', 'nop·interval-10s'];
    const variants = new Set(printed.attempts.map((attempt) => attempt.variant));
    expect(variants).toEqual(new Set([oracle, nop]));
    // nop never solves: every pair the oracle solved is a sign for it, and there is no sign for nop
    expect(printed.attempts.filter((attempt) => attempt.variant === nop && attempt.scores.solved)).toEqual([]);

    const lastRound = Math.max(...printed.attempts.map((attempt) => attempt.repeat));
    const decidedAt = [1, 2, 3, 4].find((round) => {
      const signs = solvedPairs(printed.attempts, oracle, nop, round).filter(([x, y]) => x !== y);
      return mixtureEValue(signs.filter(([x]) => x).length, signs.length) >= 1 / ALPHA;
    });
    // the round it stopped at is the first that decides, or the last allowed; never one more or one less
    expect(lastRound).toBe(decidedAt ?? 4);
    expect(sequential.stopped).toBe(decidedAt === undefined ? 'max-repeat' : 'decided');
    expect(sequential.rounds.map((round) => round.round)).toEqual(
      Array.from({ length: lastRound }, (_, index) => index + 1),
    );
    for (const round of sequential.rounds)
      expect(round.attempts).toBe(printed.attempts.filter((attempt) => attempt.repeat === round.round).length);
    // eight attempts a round: 4 cases × 2 variants, each repeat run once
    expect(printed.attempts.length).toBe(8 * lastRound);

    const signs = solvedPairs(printed.attempts, oracle, nop).filter(([x, y]) => x !== y);
    const forOracle = signs.filter(([x]) => x).length;
    expect(sequential.comparisons).toHaveLength(1);
    const [comparison] = sequential.comparisons;
    expect(comparison).toMatchObject({ metric: 'solved', signs: signs.length, decidedAtRound: decidedAt ?? null });
    // the comparison's a and b are the two variants in either order; its count is for its own a
    const forA = comparison!.a === oracle ? forOracle : signs.length - forOracle;
    expect(comparison!.forA).toBe(forA);
    expect(comparison!.eValue).toBeCloseTo(mixtureEValue(forA, signs.length), 9);
    expect(comparison!.better).toBe(decidedAt === undefined ? null : oracle);
    expect(sequential.rounds.at(-1)!.undecided).toBe(decidedAt === undefined ? 1 : 0);
    // on an unloaded machine the oracle solves every case: 2 rounds of 4 signs reach 2^8 / 9 ≥ 20
    if (forOracle === signs.length && signs.length === 4 * lastRound) expect(decidedAt).toBe(2);
  });

  it('writes the same record to summary.json, and runs the added rounds into the same folder', async () => {
    const written = RunSummarySchema.parse(
      JSON.parse(await readFile(path.join(printed.runDir, 'summary.json'), 'utf8')),
    );
    expect(written.sequential).toEqual(printed.sequential);
    const rounds = printed.sequential!.rounds.length;
    // every (case, variant, repeat) of every round, once, in this one run
    const keys = printed.attempts.map((attempt) => `${attempt.caseId}/${attempt.variant}/${attempt.repeat}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(8 * rounds);
    for (const attempt of printed.attempts)
      await readFile(path.join(printed.runDir, attempt.caseId, attempt.variant, String(attempt.repeat), 'score.json'));
    expect(stderr).toContain(`${8 * rounds} attempts`);
  });

  describe('hangbench plan on that run as a pilot', () => {
    it('plans solved from the pilot’s own pairs: their discordance, α, and the fewest repeats with the power asked', async () => {
      const result = await hangbench(['plan', printed.runDir, '--detect', '20pt', '--metric', 'solved', '--json']);
      expect(result.exitCode, result.stderr).toBe(0);
      const plan = JSON.parse(result.stdout) as {
        runDir: string;
        pilotRepeats: number;
        power: number;
        perRepeat: { attempts: number; tokens: number };
        pairs: Array<{
          metric: string;
          a: string;
          b: string;
          pilotPairs: number;
          pairsPerRepeat: number;
          discordance: number;
          alpha: number;
          repeats: number | null;
        }>;
        run: { repeats: number | null; attempts: number | null };
      };
      const rounds = printed.sequential!.rounds.length;
      expect(plan).toMatchObject({ runDir: printed.runDir, pilotRepeats: rounds, power: 0.8 });
      expect(plan.perRepeat).toEqual(expect.objectContaining({ attempts: 8, tokens: 0 }));
      expect(plan.pairs).toHaveLength(1);
      const pair = plan.pairs[0]!;
      const pairs = solvedPairs(printed.attempts, pair.a, pair.b);
      expect(new Set([pair.a, pair.b])).toEqual(new Set(['oracle·interval-10s', 'nop·interval-10s']));
      expect(pair).toMatchObject({ metric: 'solved', pilotPairs: 4 * rounds, pairsPerRepeat: 4, alpha: ALPHA });
      expect(pair.discordance).toBeCloseTo(pairs.filter(([x, y]) => x !== y).length / pairs.length, 12);

      // the fewest repeats whose 4 pairs a repeat give McNemar's exact test the power, at the pilot's discordance
      // (or the effect's, if that is more)
      const discordance = Math.max(pair.discordance, 0.2);
      const power = (repeats: number) => mcnemarPower(repeats * 4, discordance, 0.2, ALPHA);
      expect(pair.repeats).not.toBeNull();
      expect(power(pair.repeats!)).toBeGreaterThanOrEqual(0.8);
      if (pair.repeats! > 1) expect(power(pair.repeats! - 1)).toBeLessThan(0.8);
      expect(plan.run).toMatchObject({ repeats: pair.repeats, attempts: pair.repeats! * 8 });

      // the same plan as text: the table's row and the run that decides it
      const text = await hangbench(['plan', printed.runDir, '--detect', '20pt', '--metric', 'solved']);
      expect(text.exitCode, text.stderr).toBe(0);
      expect(text.stdout).toContain(`pilot: ${rounds} repeats; per repeat 8 attempts`);
      expect(text.stdout).toMatch(new RegExp(`solved\\s+${pair.a} vs ${pair.b}\\s+${4 * rounds}\\s+`));
      expect(text.stdout).toContain(`--repeat ${pair.repeats} → ${pair.repeats! * 8} attempts`);
    });

    it('asks more repeats for a smaller effect or more power, and plans every rate by default', async () => {
      const repeatsFor = async (...args: string[]) => {
        const result = await hangbench(['plan', printed.runDir, ...args, '--json']);
        expect(result.exitCode, result.stderr).toBe(0);
        return JSON.parse(result.stdout) as { pairs: Array<{ metric: string; repeats: number | null }> };
      };
      const solved = async (...args: string[]) =>
        (await repeatsFor(...args, '--metric', 'solved')).pairs[0]!.repeats ?? Infinity;
      // effects the pilot's 4 pairs a repeat plan in tens of repeats (a 10-point effect takes hundreds: slow to scan)
      const [coarse, fine, surer] = [
        await solved('--detect', '50pt'),
        await solved('--detect', '30pt'),
        await solved('--detect', '50pt', '--power', '0.95'),
      ];
      expect(fine).toBeGreaterThan(coarse);
      expect(surer).toBeGreaterThan(coarse);
      // without --metric: each compared rate the two variants both have a value of (interrupt latency and tokens are
      // in other units)
      const all = await repeatsFor('--detect', '50pt');
      expect(all.pairs.map((pair) => pair.metric)).toContain('solved');
      expect(all.pairs.map((pair) => pair.metric)).not.toContain('tokens');
      expect(all.pairs.map((pair) => pair.metric)).not.toContain('interrupt_latency');
    });

    it('refuses a plan without --detect, with a bad power, or from a folder with no summary', async () => {
      const noDetect = await hangbench(['plan', printed.runDir]);
      expect(noDetect.exitCode).toBe(2);
      expect(noDetect.stderr).toContain('--detect');
      const badPower = await hangbench(['plan', printed.runDir, '--detect', '10pt', '--power', '1.5']);
      expect(badPower.exitCode).toBe(2);
      expect(badPower.stderr).toContain('--power');
      const empty = await mkdtemp(path.join(tmpdir(), 'hangbench-plan-empty-'));
      const noSummary = await hangbench(['plan', empty, '--detect', '10pt']);
      expect(noSummary.exitCode).not.toBe(0);
      expect(noSummary.stderr).toContain('no summary.json');
    });
  });
});

describe('eval --repeat-until decided that cannot decide: runs to --max-repeat and says so', () => {
  it('adds every round up to --max-repeat when the variants always agree, and prints each round', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-until-max-'));
    const result = await hangbench([
      'eval',
      NO_SIGNS,
      '--agent',
      'oracle,nop',
      '--repeat-until',
      'decided',
      '--metric',
      'solved',
      '--max-repeat',
      '3',
      '--time-scale',
      '0.1',
      '--out',
      out,
      '--run-id',
      'undecided',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const summary = RunSummarySchema.parse(
      JSON.parse(await readFile(path.join(out, 'undecided/summary.json'), 'utf8')),
    );
    // neither side solves this case: no sign, so nothing is decided, and the run goes to its maximum
    expect(summary.attempts.filter((attempt) => attempt.scores.solved)).toEqual([]);
    expect(summary.attempts.map((attempt) => attempt.repeat).sort()).toEqual([1, 1, 2, 2, 3, 3]);
    expect(summary.sequential).toMatchObject({ stopped: 'max-repeat', maxRepeat: 3 });
    expect(summary.sequential!.rounds.map((round) => [round.round, round.attempts, round.undecided])).toEqual([
      [1, 2, 1],
      [2, 2, 1],
      [3, 2, 1],
    ]);
    expect(summary.sequential!.comparisons).toEqual([
      expect.objectContaining({ metric: 'solved', decidedAtRound: null, better: null, signs: 0, forA: 0, eValue: 1 }),
    ]);
    expect(result.stdout).toContain('stopped after round 3, --max-repeat 3 reached');
    expect(result.stdout).toMatch(/round 3: 2 attempts, .* 1 undecided after it/);
    expect(result.stdout).toMatch(/solved .* vs .*: undecided \(e-value 1\.00\); 0 of 0 differing pairs/);

    // a plan from it: the pilot never disagreed, so each pair is planned as disagreeing as often as the effect needs
    const plan = await hangbench([
      'plan',
      path.join(out, 'undecided'),
      '--detect',
      '50pt',
      '--metric',
      'solved',
      '--json',
    ]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const [pair] = (JSON.parse(plan.stdout) as { pairs: Array<{ discordance: number; repeats: number }> }).pairs;
    expect(pair!.discordance).toBe(0);
    const power = (repeats: number) => mcnemarPower(repeats, 0.5, 0.5, ALPHA);
    expect(power(pair!.repeats)).toBeGreaterThanOrEqual(0.8);
    if (pair!.repeats > 1) expect(power(pair!.repeats - 1)).toBeLessThan(0.8);
  }, 120_000);

  it('refuses --repeat beside --repeat-until, and --max-repeat or --metric without it', async () => {
    const both = await hangbench(['eval', NO_SIGNS, '--repeat-until', 'decided', '--repeat', '2']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--max-repeat');
    for (const flag of [
      ['--max-repeat', '3'],
      ['--metric', 'solved'],
    ]) {
      const alone = await hangbench(['eval', NO_SIGNS, ...flag]);
      expect(alone.exitCode).toBe(2);
      expect(alone.stderr).toContain('goes with --repeat-until decided');
    }
    const other = await hangbench(['eval', NO_SIGNS, '--repeat-until', 'significant']);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('the one condition is "decided"');
  });
});
