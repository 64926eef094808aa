import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalRun, hangbench, root } from './run-helpers.js';

/** A library case copied into a folder of its own, its fixture path made absolute so the copy still finds it. */
async function copyCase(id: string, dir: string): Promise<string> {
  const text = await readFile(path.join(root, 'cases', `${id}.yaml`), 'utf8');
  const file = path.join(dir, `${id}.yaml`);
  await writeFile(
    file,
    text.replace(/^fixture: \.\.\/(.*)$/m, (_, rest: string) => `fixture: ${path.join(root, rest)}`),
  );
  return file;
}

describe('eval --resume refuses a run whose options or cases changed', () => {
  it('resumes an unchanged run, and refuses once a case file is added to its case folder', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'hangbench-resume-'));
    const cases = path.join(work, 'cases');
    await mkdir(cases);
    await copyCase('node-busy-loop', cases);
    const runDir = await evalRun(path.join(work, 'results'), 'r1', [], [cases]);

    // the invocation's own flags (not recorded in meta.json) and the one that may change are taken
    const again = await hangbench([
      'eval',
      '--resume',
      runDir,
      '--json',
      '--concurrency',
      '1',
      '--isolation',
      'auto',
      '--fail-under',
      '0%',
    ]);
    expect(again.exitCode).toBe(0);
    expect((JSON.parse(again.stdout) as { totals: { attempts: number } }).totals.attempts).toBe(1);

    const changedOption = await hangbench(['eval', '--resume', runDir, '--time-scale', '0.2']);
    expect(changedOption.exitCode).toBe(2);
    expect(changedOption.stderr).toContain('leave out --time-scale');
    // the hint names the flags as eval spells them
    const changedHosts = await hangbench(['eval', '--resume', runDir, '--agent-allow-host', 'example.com']);
    expect(changedHosts.exitCode).toBe(2);
    expect(changedHosts.stderr).toContain('leave out --agent-allow-host (');

    await copyCase('bash-tail-follow', cases);
    const changedCases = await hangbench(['eval', '--resume', runDir]);
    expect(changedCases.exitCode).toBe(2);
    expect(changedCases.stderr).toContain('the case set changed since the run started (added bash-tail-follow)');
  });
});
