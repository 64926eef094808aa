import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { attemptMarkerProcesses } from '../support/proc-scan.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/hangbench.js');
const scratch = await mkdtemp(path.join(tmpdir(), 'hangbench-init-capture-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

function hangbench(args: readonly string[], cwd: string) {
  return execa('node', [bin, ...args], { cwd, reject: false, env: { CI: '1' } });
}

interface CheckJson {
  readonly sound: boolean;
  readonly cases: ReadonlyArray<{
    caseId: string;
    class: string;
    sound: boolean;
    checks: Record<string, { ok: boolean | null; reason: string }>;
  }>;
}

describe('hangbench init', () => {
  it('writes a config and one example case that check-cases proves sound', async () => {
    const project = await mkdtemp(path.join(scratch, 'init-'));
    const init = await hangbench(['init'], project);
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout).toContain('wrote hangbench.config.yaml');
    expect(init.stdout).toContain('wrote cases/example-confirm-prompt.yaml');
    // check-cases without paths takes the project's cases/, not the bundled library
    const check = await hangbench(['check-cases', '--json', '--concurrency', '1'], project);
    expect(check.exitCode, check.stdout + check.stderr).toBe(0);
    const result = JSON.parse(check.stdout) as CheckJson;
    expect(result.cases.map((entry) => [entry.caseId, entry.sound])).toEqual([['example-confirm-prompt', true]]);
    expect((await hangbench(['list', '--config', 'hangbench.config.yaml'], project)).stdout).toContain(
      '1 case(s) × 2 variant(s) × 1 repeat(s) = 2 attempt(s)',
    );
    const again = await hangbench(['init'], project);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('pass --force to overwrite them');
  });
});

describe('hangbench capture', () => {
  /** Three real hangs, each printing a line first: a stdin prompt, a pipe held by a grandchild, a sleep-forever loop. */
  const HANGS = {
    'ask.sh': [
      '#!/bin/bash',
      'echo "checking the config"',
      "printf 'Overwrite config.toml? [y/N] '",
      'read -r answer',
      'echo "answer: $answer"',
    ],
    'versions.sh': ['#!/bin/bash', 'echo "collecting versions"', 'v=$(bash helper.sh)', 'echo "got $v"'],
    'helper.sh': ['#!/bin/bash', 'sleep 1000 &', 'echo 1.2.3'],
    'wait-ready.sh': [
      '#!/bin/bash',
      'echo "waiting for the ready marker"',
      'while [ ! -f ready ]; do sleep 0.2; done',
      'echo ready',
    ],
  };
  const EXPECTED = [
    { script: 'ask.sh', id: 'ask', class: 'stdin-wait', onset: 'Overwrite config.toml? [y/N]' },
    { script: 'versions.sh', id: 'versions', class: 'orphan-holds-pipe', onset: 'collecting versions' },
    { script: 'wait-ready.sh', id: 'wait-ready', class: 'sleep-forever', onset: 'waiting for the ready marker' },
  ];

  let project = '';

  it('drafts a case from each of three real hangs: repro, class from the ticks, onset from the last output, the workspace', async () => {
    project = await mkdtemp(path.join(scratch, 'capture-'));
    for (const [name, lines] of Object.entries(HANGS))
      await writeFile(path.join(project, name), `${lines.join('\n')}\n`);
    await writeFile(path.join(project, 'untracked.txt'), 'not in git: not copied\n');
    await execa('git', ['init', '-q'], { cwd: project });
    await execa('git', ['add', ...Object.keys(HANGS)], { cwd: project });

    for (const expected of EXPECTED) {
      const captured = await hangbench(
        ['capture', '--interval', '500ms', '--ticks', '2', '--', 'bash', expected.script],
        project,
      );
      expect(captured.exitCode, captured.stderr).toBe(0);
      expect(captured.stdout).toContain(`wrote cases/${expected.id}.yaml`);
      expect(captured.stdout).not.toContain('still running after the kill');
      const yaml = await readFile(path.join(project, 'cases', `${expected.id}.yaml`), 'utf8');
      expect(yaml).toContain(`repro: "bash ${expected.script}"`);
      expect(yaml).toContain(`class: ${expected.class}`);
      expect(yaml).toContain(`onset: { output: ${JSON.stringify(expected.onset)} }`);
      expect(yaml).toMatch(/^# {3}tick 2 at .*: /m);
      const hidden = await readFile(path.join(project, 'fixtures', expected.id, 'hidden', 'check.sh'), 'utf8');
      expect(hidden).toContain('exit 1');
      expect(
        await readFile(path.join(project, 'fixtures', expected.id, 'workspace', expected.script), 'utf8'),
      ).toContain('#!/bin/bash');
      await expect(
        readFile(path.join(project, 'fixtures', expected.id, 'workspace', 'untracked.txt')),
      ).rejects.toThrow();
    }
    expect(attemptMarkerProcesses('capture-')).toEqual([]);
  });

  it('validate accepts the drafts; check-cases sees each repro hang and says what is missing', async () => {
    expect(project, 'the capture test ran first').not.toBe('');
    const validate = await hangbench(['validate'], project);
    expect(validate.stdout).toContain('3 valid case(s), 0 problem(s)');
    expect(validate.exitCode).toBe(0);

    const check = await hangbench(['check-cases', '--json', '--concurrency', '3'], project);
    expect(check.exitCode).toBe(2);
    const result = JSON.parse(check.stdout) as CheckJson;
    for (const expected of EXPECTED) {
      const entry = result.cases.find((item) => item.caseId === expected.id);
      expect(entry?.class).toBe(expected.class);
      expect(entry?.checks.repro?.ok, entry?.checks.repro?.reason).toBe(true);
      expect(entry?.checks.verifyUntouched?.ok).toBe(true);
      expect(entry?.checks.verifyPatched).toMatchObject({
        ok: false,
        reason: expect.stringContaining('solution.patch is empty'),
      });
      expect(entry?.checks.nop?.ok).toBe(true);
    }
  });

  it('Ctrl-C drafts the case from what was seen so far; --max gives up on a command that keeps making progress', async () => {
    const project = await mkdtemp(path.join(scratch, 'capture-stop-'));
    await writeFile(
      path.join(project, 'progress.sh'),
      'i=0; while true; do i=$((i+1)); echo "step $i"; sleep 0.1; done\n',
    );
    const child = execa(
      'node',
      [bin, 'capture', '--include', 'progress.sh', '--interval', '300ms', '--', 'bash', 'progress.sh'],
      { cwd: project, reject: false, env: { CI: '1' } },
    );
    await new Promise<void>((resolve) => {
      let seen = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('tick 2 ')) resolve();
      });
    });
    child.kill('SIGINT');
    const stopped = await child;
    expect(stopped.exitCode, stopped.stderr).toBe(0);
    expect(await readFile(path.join(project, 'cases', 'progress.yaml'), 'utf8')).toContain('stopped by the user');
    expect(attemptMarkerProcesses('capture-')).toEqual([]);
    // Progress the monitor believes: new lines, not one line with a count moving (that reads as a retry loop).
    await writeFile(
      path.join(project, 'busy.sh'),
      'w=(lexer parser checker emitter linker bundler); i=0; while true; do echo "compiled ${w[i % 6]}-${w[(i / 6) % 6]}.o"; i=$((i+1)); sleep 0.02; done\n',
    );
    const gaveUp = await hangbench(
      [
        'capture',
        '--include',
        'busy.sh',
        '--interval',
        '1s',
        '--max',
        '3s',
        '--id',
        'progress-max',
        '--',
        'bash',
        'busy.sh',
      ],
      project,
    );
    expect(gaveUp.exitCode).toBe(1);
    expect(gaveUp.stderr).toContain('no tick classified it as hung');
  });

  it('refuses a command that does not hang, and a folder that is not a git checkout without --include', async () => {
    const project = await mkdtemp(path.join(scratch, 'capture-refuse-'));
    await writeFile(path.join(project, 'ok.sh'), 'echo fine\n');
    const notGit = await hangbench(['capture', '--', 'bash', 'ok.sh'], project);
    expect(notGit.exitCode).toBe(2);
    expect(notGit.stderr).toContain('--include');
    const quick = await hangbench(
      ['capture', '--include', 'ok.sh', '--interval', '500ms', '--', 'bash', 'ok.sh'],
      project,
    );
    expect(quick.exitCode).toBe(1);
    expect(quick.stderr).toContain('it did not hang here');
  });
});
