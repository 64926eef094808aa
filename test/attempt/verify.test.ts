import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runVerify } from '../../src/attempt/verify.js';
import { TraceWriter } from '../../src/trace/writer.js';
import type { VerifyStep } from '../../src/types/case.js';
import { sandboxPerTest } from '../sandbox/helpers.js';
import { describeOnLinux } from '../support/capability.js';

const step = (run: string, fields: Partial<VerifyStep> = {}): VerifyStep => ({
  run,
  timeout: 20_000,
  exit: 0,
  ...fields,
});

const newSandbox = sandboxPerTest();

async function verify(steps: readonly VerifyStep[]) {
  const sandbox = await newSandbox('verify');
  const trace = new TraceWriter(path.join(await mkdtemp(path.join(tmpdir(), 'hangbench-verify-')), 'trace.jsonl'));
  const passed = await runVerify(sandbox, steps, trace, { timeScale: 1, floorMs: 0 });
  const reasons = trace.events.flatMap((event) => (event.type === 'verify' ? [event.reason] : []));
  return { passed, reasons, events: trace.events.filter((event) => event.type === 'verify') };
}

describeOnLinux('runVerify', () => {
  it('passes when every step exits as expected and its output matches (a /regex/ or a substring)', async () => {
    await expect(
      verify([
        step('echo "ok: 3 tests"', { stdout: '/ok: \\d+ tests/' }),
        step('echo warn >&2; exit 4', { exit: 4, stderr: 'warn' }),
      ]),
    ).resolves.toMatchObject({
      passed: true,
      reasons: ['', ''],
    });
  });

  it('says what each failing step got wrong: exit code first, then stdout, then stderr', async () => {
    const { passed, reasons } = await verify([
      step('echo fine; exit 2', { stdout: 'nope' }),
      step('echo fine', { stdout: 'nope', stderr: 'also nope' }),
      step('echo fine', { stderr: '/^err$/' }),
      step('kill -TERM $$'),
    ]);
    expect(passed).toBe(false);
    expect(reasons).toEqual([
      'exit code 2 (expected 0)',
      'stdout does not match nope',
      'stderr does not match /^err$/',
      'exit code SIGTERM (expected 0)',
    ]);
  });

  it('a step that times out asleep is the hang; one kept from a CPU to the cap is recorded as the load, with its CPU time', async () => {
    // The second step runs four busy loops on CPU 0: each waits for it three quarters of the time.
    const { passed, reasons, events } = await verify([
      step('sleep 30', { timeout: 300 }),
      step("taskset -c 0 sh -c 'for i in 1 2 3; do (while :; do :; done) & done; while :; do :; done'", {
        timeout: 300,
      }),
    ]);
    expect(passed).toBe(false);
    expect(reasons[0]).toMatch(/^timed out after 300ms.* \(still running: the hang is not fixed\)$/);
    expect(events[0]).not.toHaveProperty('saturated');
    expect(reasons[1]).toMatch(/the machine stayed saturated: .* this timeout is the load, not a verdict on the fix/);
    expect(events[1]).toMatchObject({ timedOut: true, saturated: true });
    expect(events[1]).toHaveProperty('load1', expect.any(Number));
    expect(events[1]!.type === 'verify' && events[1]!.cpuMs).toBeGreaterThan(0);
  });
});
