import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hiddenLayers } from '../../src/attempt/verify.js';

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
  console.log(JSON.stringify(await runNode(['-e', 'console.log("up"); setInterval(() => {}, 1000)'], 300)));
} else {
  const child = startNode(['-e', 'console.log(process.pid); setInterval(() => {}, 1000)']);
  await new Promise((resolve) => child.stdout.once('data', resolve));
  console.log(\`child \${child.pid}\`);
  await fail('on purpose');
}
`;

/** Whether the process is gone (a zombie nobody has reaped yet counts as gone: it runs nothing). */
function gone(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || / Z /.test(readFileSync(stat, 'utf8'));
}

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

describe.skipIf(process.platform !== 'linux')('the helpers the hidden checks share', () => {
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

  const runCheck = (file: string, args: string[]) =>
    new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(path.extname(file) === '.py' ? 'python3' : process.execPath, [file, ...args], { cwd: dir }, (error, stdout) =>
        resolve({ code: error ? Number(error.code) : 0, stdout }),
      );
    });

  it('succeeds(): passes a program that exits 0 and leaves nothing running', async () => {
    await expect(runCheck('check_demo.py', ['success', 'echo done', '5'])).resolves.toEqual({ code: 0, stdout: 'demo ok\n' });
  });

  it('succeeds(): fails a program that exits 0 but leaves a process behind, named after the check, and kills it', async () => {
    const { code, stdout } = await runCheck('check_demo.py', ['success', 'sleep 30 >/dev/null 2>&1 & echo $!', '5']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^check_demo: FAIL: demo exited 0 but left processes running:\n\d+\n\n$/);
    expect(gone(Number(stdout.split('\n')[1]))).toBe(true);
  });

  it('succeeds(): fails a program that exits non-zero', async () => {
    const { code, stdout } = await runCheck('check_demo.py', ['success', 'echo broken; exit 3', '5']);
    expect(code).toBe(1);
    expect(stdout).toBe('check_demo: FAIL: demo exited 3:\nbroken\n\n');
  });

  it('succeeds(): fails a program still running at the limit, with its output so far, and kills its group', async () => {
    const { code, stdout } = await runCheck('check_demo.py', ['success', 'echo $$; exec sleep 30', '0.5']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^check_demo: FAIL: demo did not finish:\n\d+\n\n$/);
    expect(gone(Number(stdout.split('\n')[1]))).toBe(true);
  });

  it('stops_failing(): passes a program that fails on its own and fails one that exits 0', async () => {
    await expect(runCheck('check_demo.py', ['failure', 'exit 2', '5'])).resolves.toEqual({ code: 0, stdout: 'demo ok\n' });
    const { code, stdout } = await runCheck('check_demo.py', ['failure', 'true', '5']);
    expect(code).toBe(1);
    expect(stdout).toBe('check_demo: FAIL: demo exited 0 instead of failing:\n\n');
  });

  it('runNode(): kills a node program at the limit and reports it as not finished, with its output', async () => {
    const { code, stdout } = await runCheck('check_demo.mjs', ['limit']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ code: null, output: 'up\n' });
  });

  it('fail() in a node check: the failure line named after the check, and no child it started outlives it', async () => {
    const { code, stdout } = await runCheck('check_demo.mjs', ['fail']);
    expect(code).toBe(1);
    const [childLine, failLine] = stdout.trim().split('\n');
    expect(failLine).toBe('check_demo: FAIL: on purpose');
    expect(gone(Number(childLine?.replace('child ', '')))).toBe(true);
  });
});
