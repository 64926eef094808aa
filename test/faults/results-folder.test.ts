import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CAN_UNSHARE_MOUNT, requireCapability } from '../support/capability.js';
import {
  allGone,
  contains,
  exists,
  hangbench,
  HOSTILE,
  leftovers,
  PrivateMount,
  readJson,
  runId,
  STACK_FRAME,
  until,
  type Summary,
} from './support.js';

const CANARY = path.join(HOSTILE, 'cases/canary.yaml');
const FLOOD = path.join(HOSTILE, 'cases/output-flood.yaml');
/** The canary never killed, a tick every 200 ms: three attempts one after another, ≈ 2 s each. */
const CANARY_RUN = [
  '--agent',
  'baseline',
  '--hung-ticks',
  '1000000',
  '--time-scale',
  '0.1',
  '--interval',
  '2s',
  '--repeat',
  '3',
  '--concurrency',
  '1',
];
const VARIANT = 'baseline-k1000000·interval-2s';

let mount: PrivateMount | null = null;
afterEach(() => {
  mount?.close();
  mount = null;
});

/** Lines of the run's output that name the error: one line, no stack. */
function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => line.startsWith('hangbench eval:'));
}

describe('--out that cannot be a results folder', () => {
  it('--out under /proc: one line naming the folder and the fix, exit 1, in seconds (it used to spin on mkdir forever)', async () => {
    const started = performance.now();
    const cli = hangbench(['eval', CANARY, '--out', '/proc/nope', '--time-scale', '0.1']);
    const { code, at } = await cli.exited;
    console.log(`--out /proc/nope → exit ${code} after ${(at - started).toFixed(0)} ms`);
    expect(code).toBe(1);
    expect(at - started).toBeLessThan(30_000);
    expect(errorLines(cli.output())).toEqual([
      expect.stringMatching(
        /^hangbench eval: --out \/proc\/nope: cannot write the results folder \/proc\/nope\/\S+ \(ENOENT: .*\); choose another --out$/,
      ),
    ]);
    expect(cli.output()).not.toMatch(STACK_FRAME);
  });

  it('--out on a read-only mount: one line with EROFS and the fix, no stack; --debug adds the stack', async (context) => {
    requireCapability(context, 'root with mount namespaces', CAN_UNSHARE_MOUNT);
    mount = await PrivateMount.create('1m');
    mount.exec(`mount -o remount,ro ${mount.dir}`);
    const cli = hangbench(['eval', CANARY, '--out', mount.dir, '--time-scale', '0.1'], mount.prefix);
    expect((await cli.exited).code).toBe(1);
    expect(errorLines(cli.output())).toEqual([
      expect.stringMatching(
        /cannot write the results folder .* \(EROFS: read-only file system.*\); choose another --out$/,
      ),
    ]);
    expect(cli.output()).not.toMatch(STACK_FRAME);
    const debug = hangbench(['eval', CANARY, '--out', mount.dir, '--time-scale', '0.1', '--debug'], mount.prefix);
    expect((await debug.exited).code).toBe(1);
    expect(debug.output()).toMatch(/EROFS[\s\S]*\n\s+at /);
  });
});

describe('the results folder fails mid-run (a tmpfs in a private mount namespace)', () => {
  beforeEach((context) => requireCapability(context, 'root with mount namespaces', CAN_UNSHARE_MOUNT));

  it('fills up: the attempt under way stops at once, one line says what was kept and how to resume; freed, --resume completes the run', async () => {
    mount = await PrivateMount.create('4m');
    const id = runId('full');
    const run = path.join(mount.dir, id);
    const cli = hangbench(['eval', CANARY, ...CANARY_RUN, '--out', mount.dir, '--run-id', id], mount.prefix);
    await until(
      async () => ((await exists(mount!.seen(path.join(run, `canary/${VARIANT}/1/score.json`)))) ? true : null),
      'the first attempt to finish',
    );
    await until(
      async () =>
        (await contains(mount!.seen(path.join(run, `canary/${VARIANT}/2/command-1.log`)), 'canary step')) ? true : null,
      'the second attempt to run',
    );
    // Fill the disk from outside, as another job on a CI runner would.
    mount.exec(`dd if=/dev/zero of=${mount.dir}/filler bs=64k 2>/dev/null || true`);
    const filledAt = performance.now();
    const { code, at } = await cli.exited;
    console.log(`disk full → exit ${code} ${(at - filledAt).toFixed(0)} ms later`);
    expect(code).toBe(1);
    expect(at - filledAt).toBeLessThan(20_000);
    expect(errorLines(cli.output())).toEqual([
      `hangbench eval: results folder full (ENOSPC): 1 attempt kept in ${run}; free space and run \`hangbench eval --resume ${run}\``,
    ]);
    expect(cli.output()).not.toMatch(STACK_FRAME);
    await allGone(id);
    const kept = await readJson<{ outcome: string }>(mount.seen(path.join(run, `canary/${VARIANT}/1/score.json`)));
    expect(kept.outcome).toBe('completed');

    mount.exec(`rm ${mount.dir}/filler`);
    const resumed = hangbench(['eval', '--resume', run], mount.prefix);
    expect((await resumed.exited).code).toBe(0);
    const summary = await readJson<Summary>(mount.seen(path.join(run, 'summary.json')));
    expect(summary.interrupted).toBe(false);
    expect(summary.attempts.map((attempt) => [attempt.repeat, attempt.outcome])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
      [3, 'completed'],
    ]);
    await allGone(id);
  });

  it('a flood of output fills a 150 kB folder: the flood is killed and the run ends with one line (it used to run for minutes)', async () => {
    mount = await PrivateMount.create('150k');
    const id = runId('flood');
    const started = performance.now();
    const cli = hangbench(
      ['eval', FLOOD, '--time-scale', '0.1', '--interval', '2s', '--out', mount.dir, '--run-id', id],
      mount.prefix,
    );
    const { code, at } = await cli.exited;
    console.log(`flood into 150 kB → exit ${code} after ${(at - started).toFixed(0)} ms`);
    expect(code).toBe(1);
    expect(at - started).toBeLessThan(30_000);
    expect(cli.output()).toContain('warning:');
    expect(errorLines(cli.output())).toEqual([
      expect.stringMatching(
        /^hangbench eval: results folder full \(ENOSPC\): 0 attempts kept in \S+; free space and run `hangbench eval --resume \S+`$/,
      ),
    ]);
    expect(cli.output()).not.toContain('monitor listener threw');
    await allGone(id);
  });

  it('turns read-only: one line with EROFS; made writable again, --resume completes the run', async () => {
    mount = await PrivateMount.create('8m');
    const id = runId('ro');
    const run = path.join(mount.dir, id);
    const cli = hangbench(['eval', CANARY, ...CANARY_RUN, '--out', mount.dir, '--run-id', id], mount.prefix);
    await until(
      async () => ((await exists(mount!.seen(path.join(run, `canary/${VARIANT}/1/score.json`)))) ? true : null),
      'the first attempt to finish',
    );
    await until(
      async () =>
        (await contains(mount!.seen(path.join(run, `canary/${VARIANT}/2/command-1.log`)), 'canary step')) ? true : null,
      'the second attempt to run',
    );
    // Files open for writing keep a filesystem from going read-only (EBUSY); a read-only bind over the run folder makes
    // every new file and folder in it refuse (EROFS), as a remount would.
    mount.exec(`mount --bind ${run} ${run} && mount -o remount,bind,ro ${run}`);
    const readOnlyAt = performance.now();
    const { code, at } = await cli.exited;
    console.log(`results folder read-only → exit ${code} ${(at - readOnlyAt).toFixed(0)} ms later`);
    expect(code).toBe(1);
    // the attempt under way writes its open trace to the end, then its score.json is refused: bounded by its wall budget
    expect(at - readOnlyAt).toBeLessThan(30_000);
    expect(errorLines(cli.output())).toEqual([
      `hangbench eval: results folder became read-only (EROFS): 1 attempt kept in ${run}; make it writable and run \`hangbench eval --resume ${run}\``,
    ]);
    await allGone(id);
    mount.exec(`umount ${run}`);
    const resumed = hangbench(['eval', '--resume', run], mount.prefix);
    expect((await resumed.exited).code).toBe(0);
    expect((await readJson<Summary>(mount.seen(path.join(run, 'summary.json')))).attempts).toHaveLength(3);
  });
});

describe('the results folder removed mid-run', () => {
  it('the run ends with one line saying the folder is gone (nothing to resume), and nothing is left running', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const out = await mkdtemp(path.join((await import('node:os')).tmpdir(), 'hangbench-faults-rm-'));
    const id = runId('rm');
    const run = path.join(out, id);
    const cli = hangbench(['eval', CANARY, ...CANARY_RUN, '--out', out, '--run-id', id]);
    await until(
      async () => ((await exists(path.join(run, `canary/${VARIANT}/1/score.json`))) ? true : null),
      'the first attempt to finish',
    );
    await until(
      async () => ((await contains(path.join(run, `canary/${VARIANT}/2/command-1.log`), 'canary step')) ? true : null),
      'the second attempt to run',
    );
    await rm(run, { recursive: true, force: true });
    const removedAt = performance.now();
    const { code, at } = await cli.exited;
    console.log(`results folder removed → exit ${code} ${(at - removedAt).toFixed(0)} ms later`);
    expect(code).toBe(1);
    // the attempt under way finishes into its open (unlinked) trace: bounded by its wall budget, 6 s here
    expect(at - removedAt).toBeLessThan(30_000);
    expect(errorLines(cli.output())).toEqual([
      `hangbench eval: results folder ${run} was removed while the run went on (ENOENT); its attempts are lost: start the run again`,
    ]);
    expect(leftovers(id).length === 0 || (await allGone(id)) >= 0).toBe(true);
    expect(await exists(run)).toBe(false);
  });
});
