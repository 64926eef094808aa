import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeHost } from '../../src/sandbox/index.js';
import { requireCapability } from '../support/capability.js';
import { allGone, contains, sandboxesOf, hangbench, HOSTILE, readJson, runId, until, type Summary } from './support.js';

const CANARY = path.join(HOSTILE, 'cases/canary.yaml');
const VARIANT = 'baseline-k1000000·interval-2s';
let jailed = false;

beforeAll(async () => {
  jailed = (await probeHost()).isolation === 'bubblewrap';
});

describe('the sandbox killed from outside the harness', () => {
  it("bwrap SIGKILLed in one attempt and the sandbox's PID 1 in another: both end as errors with the cause in score.json, one line, exit 1, nothing left; --resume runs them again", async (context) => {
    requireCapability(context, 'bubblewrap', jailed, 'a bwrap and a PID 1 to kill from outside');
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-faults-lost-'));
    const id = runId('lost');
    const run = path.join(out, id);
    // 0.3: the canary runs ≈ 5 s, time enough to find and kill its sandbox.
    const cli = hangbench([
      'eval',
      CANARY,
      '--agent',
      'baseline',
      '--hung-ticks',
      '1000000',
      '--time-scale',
      '0.3',
      '--interval',
      '2s',
      '--repeat',
      '2',
      '--concurrency',
      '2',
      '--out',
      out,
      '--run-id',
      id,
    ]);
    for (const repeat of [1, 2])
      await until(
        async () =>
          (await contains(path.join(run, `canary/${VARIANT}/${repeat}/command-1.log`), 'canary step')) ? true : null,
        `attempt ${repeat} to run`,
      );
    // One sandbox per attempt (the folder names are cut short, so which is which does not matter).
    const [first, second] = await until(() => {
      const found = sandboxesOf(`hangbench-${id}.`);
      return found.length === 2 ? found : null;
    }, 'both sandboxes');
    process.kill(first!.holder, 'SIGKILL');
    process.kill(second!.init, 'SIGKILL');
    const killedAt = performance.now();
    const { code, at } = await cli.exited;
    console.log(`bwrap / PID 1 killed → exit ${code} ${(at - killedAt).toFixed(0)} ms later`);
    expect(code).toBe(1);
    expect(at - killedAt).toBeLessThan(30_000);
    expect(cli.output()).toMatch(
      /^hangbench eval: 2 attempts ended by the host, not the agent \(canary: the sandbox's (bwrap|PID 1) \(.+\) ended from outside the harness.*\); run `hangbench eval --resume .+` to run them again$/m,
    );
    await allGone(id);
    for (const repeat of [1, 2]) {
      const scores = await readJson<{ outcome: string; fault?: { where: string; code: string } }>(
        path.join(run, `canary/${VARIANT}/${repeat}/score.json`),
      );
      expect(scores).toMatchObject({ outcome: 'error', fault: { where: 'sandbox', code: 'SANDBOX_LOST' } });
    }

    const resumed = hangbench(['eval', '--resume', run]);
    expect((await resumed.exited).code).toBe(0);
    const summary = await readJson<Summary>(path.join(run, 'summary.json'));
    expect(summary.attempts.map((attempt) => [attempt.repeat, attempt.outcome, attempt.fault])).toEqual([
      [1, 'completed', undefined],
      [2, 'completed', undefined],
    ]);
    await allGone(id);
  });
});
