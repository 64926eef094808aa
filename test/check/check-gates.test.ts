import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { checkGates, type GateCheckContext } from '../../src/check/check-gates.js';
import { loadCases } from '../../src/cases/load-cases.js';
import { DEFAULTS } from '../../src/defaults.js';
import { probeHost } from '../../src/sandbox/index.js';
import type { Case } from '../../src/types/case.js';
import { attemptMarkerProcesses } from '../support/proc-scan.js';
import { describeOnLinux } from '../support/capability.js';

const DIR = path.resolve(import.meta.dirname, '../fixtures/check-gates');
const prefix = `check-gates-${process.pid}`;

describeOnLinux('the gates check of check-cases', () => {
  let cases: Map<string, Case>;
  let context: GateCheckContext;
  beforeAll(async () => {
    const loaded = await loadCases([DIR], DIR);
    expect(loaded.problems).toEqual([]);
    cases = new Map(loaded.cases.map((testCase) => [testCase.id, testCase]));
    const runDir = await mkdtemp(path.join(tmpdir(), 'hangbench-check-gates-'));
    context = {
      runDir,
      timeScale: 1,
      verifyFloorMs: DEFAULTS.verifyFloorMs,
      capabilities: await probeHost(),
      attemptId: (check) => `${prefix}-${check}`,
    };
  });
  const check = (id: string) => {
    const testCase = cases.get(id);
    if (!testCase) throw new Error(`no case ${id}`);
    return checkGates(testCase, context);
  };

  it('is sound when a gate fails on the untouched workspace (here it hangs) and every gate passes after the patch', async () => {
    await expect(check('gated')).resolves.toEqual({ ok: true, reason: 'gate 2 hangs → pass patched' });
    expect(attemptMarkerProcesses(prefix)).toEqual([]);
  });

  it('is unsound when the gates pass without the fix', async () => {
    await expect(check('checks-nothing')).resolves.toEqual({ ok: false, reason: '1 gate pass without the fix' });
  });

  it('is unsound when the fix cannot pass a gate', async () => {
    await expect(check('fails-patched')).resolves.toEqual({ ok: false, reason: 'patched: gate 1 fails' });
  });

  it("is unsound, with the patch's own error, when solution.patch does not apply to the workspace", async () => {
    const fixtureDir = path.join(await mkdtemp(path.join(tmpdir(), 'hangbench-stale-patch-')), 'confirm');
    await cp(path.resolve(DIR, '../check-cases/confirm'), fixtureDir, { recursive: true });
    await writeFile(
      path.join(fixtureDir, 'solution.patch'),
      '--- a/deploy.sh\n+++ b/deploy.sh\n@@ -1,2 +1,2 @@\n echo "not this line"\n-read -r other\n+other=y\n',
    );
    const outcome = await checkGates({ ...cases.get('gated')!, fixtureDir }, context);
    expect(outcome).toMatchObject({
      ok: false,
      reason: expect.stringContaining(`${path.join(fixtureDir, 'solution.patch')} does not apply to workspace/`),
    });
    expect(attemptMarkerProcesses(prefix)).toEqual([]);
  });

  it('does not apply to a case without gates', async () => {
    const [plain] = (await loadCases([path.resolve(DIR, '../check-cases/cases/confirm.yaml')], DIR)).cases;
    if (!plain) throw new Error('confirm.yaml did not load');
    await expect(checkGates(plain, context)).resolves.toEqual({ ok: null, reason: 'no gates' });
  });
});
