import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hiddenLayers } from '../../src/attempt/verify.js';
import { attemptMarkerProcesses } from '../support/proc-scan.js';
import { describeOnLinux } from '../support/capability.js';

const LIBRARY = path.resolve(import.meta.dirname, '../../fixtures/hanging-programs');
const SHARED = path.join(LIBRARY, 'shared-hidden');

// A check of each language, laid beside the shared helpers the way verify lays shared-hidden/ and hidden/.
const PYTHON_CHECK = `import sys
from hangcheck import stops_failing, succeeds

expect, program, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
(succeeds if expect == "success" else stops_failing)(["bash", "-c", program], limit, "demo")
print("demo ok")
`;
const NODE_CHECK = `import { fail, runNode, startNode } from './hangcheck.mjs';

if (process.argv[2] === 'limit') {
  console.log(JSON.stringify(await runNode(['-e', 'setInterval(() => {}, 1000)'], 300)));
} else {
  const child = startNode(['-e', 'console.log("up"); setInterval(() => {}, 1000)']);
  await new Promise((resolve) => child.stdout.once('data', resolve));
  await fail('on purpose');
}
`;

describe('hiddenLayers', () => {
  it('lays shared-hidden/ beside the fixture first, then the fixture’s own hidden/', () => {
    const fixture = path.join(LIBRARY, 'bash-wait-for-marker');
    expect(hiddenLayers(fixture)).toEqual([SHARED, path.join(fixture, 'hidden')]);
  });

  it('lays only hidden/ for a fixture with no shared-hidden/ beside it', async () => {
    const fixture = path.join(await mkdtemp(path.join(tmpdir(), 'hangbench-layers-')), 'lonely');
    expect(hiddenLayers(fixture)).toEqual([path.join(fixture, 'hidden')]);
  });
});

describeOnLinux('the helpers the hidden checks share', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hangbench-hangcheck-'));
    await cp(SHARED, dir, { recursive: true });
    await writeFile(path.join(dir, 'check_demo.py'), PYTHON_CHECK);
    await writeFile(path.join(dir, 'check_demo.mjs'), NODE_CHECK);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // Every process of a check carries its own marker: none may be running once the check has ended.
  let runs = 0;
  const runCheck = async (file: string, args: string[]) => {
    const marker = `hangcheck-test-${process.pid}-${(runs += 1)}-`;
    const env = { ...process.env, HANGBENCH_ATTEMPT: marker };
    const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        path.extname(file) === '.py' ? 'python3' : process.execPath,
        [file, ...args],
        { cwd: dir, env },
        (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
      );
    });
    expect(attemptMarkerProcesses(marker)).toEqual([]);
    return result;
  };

  it('succeeds(): passes a program that exits 0 and leaves nothing running', async () => {
    await expect(runCheck('check_demo.py', ['success', 'echo done', '5'])).resolves.toEqual({
      code: 0,
      stdout: 'demo ok\n',
    });
  });

  it('succeeds(): fails a program that exits 0 but leaves a process behind, named after the check, and kills it', async () => {
    await expect(runCheck('check_demo.py', ['success', 'sleep 30 >/dev/null 2>&1 &', '5'])).resolves.toEqual({
      code: 1,
      stdout: 'check_demo: FAIL: demo exited 0 but left processes running:\n\n',
    });
  });

  it('succeeds(): fails a program that exits non-zero', async () => {
    const { code, stdout } = await runCheck('check_demo.py', ['success', 'echo broken; exit 3', '5']);
    expect(code).toBe(1);
    expect(stdout).toBe('check_demo: FAIL: demo exited 3:\nbroken\n\n');
  });

  it('succeeds(): fails a program still running at the limit, and kills its group', async () => {
    await expect(runCheck('check_demo.py', ['success', 'sleep 30 & sleep 30', '0.5'])).resolves.toEqual({
      code: 1,
      stdout: 'check_demo: FAIL: demo did not finish:\n\n',
    });
  });

  it('stops_failing(): passes a program that fails on its own and fails one that exits 0', async () => {
    await expect(runCheck('check_demo.py', ['failure', 'exit 2', '5'])).resolves.toEqual({
      code: 0,
      stdout: 'demo ok\n',
    });
    const { code, stdout } = await runCheck('check_demo.py', ['failure', 'true', '5']);
    expect(code).toBe(1);
    expect(stdout).toBe('check_demo: FAIL: demo exited 0 instead of failing:\n\n');
  });

  it('runNode(): kills a node program at the limit and reports it as not finished', async () => {
    await expect(runCheck('check_demo.mjs', ['limit'])).resolves.toEqual({
      code: 0,
      stdout: '{"code":null,"output":""}\n',
    });
  });

  it('fail() in a node check: the failure line named after the check, and no child it started outlives it', async () => {
    await expect(runCheck('check_demo.mjs', ['fail'])).resolves.toEqual({
      code: 1,
      stdout: 'check_demo: FAIL: on purpose\n',
    });
  });
});
