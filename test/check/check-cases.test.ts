import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { renderCheckCases } from '../../src/cli/check-cases.js';
import { main } from '../../src/cli/main.js';
import { checkCases, type CheckCasesResult } from '../../src/check/check-cases.js';
import { attemptMarkerProcesses } from '../support/proc-scan.js';
import { collector } from '../support/collector.js';
import { describeOnLinux } from '../support/capability.js';

const CASES = path.resolve(import.meta.dirname, '../fixtures/check-cases/cases');

describeOnLinux('check-cases', () => {
  let out: string;
  let result: CheckCasesResult;
  beforeAll(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'hangbench-check-'));
    result = await checkCases({ caseInputs: [CASES], out, runId: `check-test-${process.pid}`, concurrency: 3 });
  });

  it('proves a sound hang case sound: it hangs, verify fails untouched and passes patched, oracle solves, nop does not', () => {
    const confirm = result.cases.find((check) => check.caseId === 'confirm');
    expect(confirm).toMatchObject({ kind: 'hang', class: 'stdin-wait', terminal: 'pipe', sound: true });
    expect(confirm?.checks.repro.reason).toMatch(/^hangs \(blocked-on-stdin at /);
    expect(confirm?.checks.verifyUntouched.reason).toMatch(/^fails: step 1 timed out/);
    expect(Object.values(confirm?.checks ?? {}).map((check) => check.ok)).toEqual([true, true, true, null, true, true]);
    expect(confirm?.checks.gates).toEqual({ ok: null, reason: 'no gates' });
  });

  it('runs a terminal: pty case end to end: the pager hangs on a pty, the oracle kills it, verify runs on a pty too', () => {
    const pager = result.cases.find((check) => check.caseId === 'pager');
    expect(pager).toMatchObject({ terminal: 'pty', sound: true });
    expect(pager?.checks.repro.reason).toMatch(/^hangs \(blocked-on-stdin/);
    // On a pipe `less` behaves like cat and verify would pass: failing untouched proves verify ran on a pty.
    expect(pager?.checks.verifyUntouched).toMatchObject({ ok: true });
  });

  it('finds an unsound case, says why, and leaves nothing running', () => {
    const noHang = result.cases.find((check) => check.caseId === 'no-hang');
    expect(noHang?.sound).toBe(false);
    expect(noHang?.checks.repro).toMatchObject({ ok: false });
    expect(noHang?.checks.repro.reason).toMatch(/^exit 0 after \S+, soon after its onset$/);
    expect(noHang?.checks.verifyUntouched).toEqual({ ok: false, reason: 'passes without the fix (1 step)' });
    expect(noHang?.checks.oracle).toMatchObject({ ok: false });
    expect(result.sound).toBe(false);
    expect(attemptMarkerProcesses(`check-test-${process.pid}`)).toEqual([]);
  });

  it('renders a table with a mark and a reason per check, the failures in full, and saves the result', async () => {
    const text = renderCheckCases(result, false);
    expect(text).toMatch(/^case\s+kind\s+class\s+repro\s+verify untouched\s+verify patched\s+gates\s+oracle\s+nop$/m);
    expect(text).toMatch(/^pager\s+hang \(pty\)\s+tty-prompt\s+✓ hangs/m);
    expect(text).toContain('✗ no-hang verify untouched: passes without the fix (1 step)');
    expect(text).toMatch(/1 of 3 case\(s\) unsound · time scale 0\.1 · /);
    const saved = JSON.parse(await readFile(path.join(result.runDir, 'check-cases.json'), 'utf8')) as CheckCasesResult;
    expect(saved.cases.map((check) => check.caseId).sort()).toEqual(['confirm', 'no-hang', 'pager']);
  });

  it('exits 2 on an unsound case and 0 when every case is sound, with --json on stdout', async () => {
    const io = (stdout = collector(), stderr = collector()) => ({
      stdout,
      stderr,
      env: {},
      cwd: out,
      shutdown: new AbortController().signal,
    });
    const sound = io();
    expect(await main(['check-cases', path.join(CASES, 'confirm.yaml'), '--json', '--out', out], sound)).toBe(0);
    const parsed = JSON.parse(sound.stdout.text) as CheckCasesResult;
    expect(parsed).toMatchObject({ sound: true, timeScale: 0.1, problems: [] });
    expect(sound.stderr.text).toMatch(/^✓ confirm sound /m);
    const unsound = io();
    expect(await main(['check-cases', path.join(CASES, 'no-hang.yaml'), '--out', out], unsound)).toBe(2);
    expect(unsound.stdout.text).toContain('1 of 1 case(s) unsound');
  });
});
