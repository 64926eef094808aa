import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/hangbench.js');

interface Child {
  readonly child: ChildProcess;
  readonly exited: Promise<number>;
  readonly stderr: () => string;
}

function start(args: readonly string[], nodeFlags: readonly string[] = [], env: Record<string, string> = {}): Child {
  const child = spawn('node', [...nodeFlags, bin, ...args], {
    cwd: root,
    env: { ...process.env, CI: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGTERM' ? 143 : 128))),
  );
  return { child, exited, stderr: () => stderr };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the CLI behaves as a Unix command', () => {
  it('a reader that closes stdout early (| head) ends the command quietly with exit 0', async () => {
    const cli = start(['list']);
    // Close our end before the CLI writes, as `| head -1` has once it holds its line.
    cli.child.stdout!.destroy();
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).not.toMatch(/EPIPE|Error/);
  });

  it('a SIGTERM while the CLI is still loading exits 130, not by the signal', async () => {
    const cli = start(['list'], ['--import', path.join(root, 'test/fixtures/cli/slow-cli-load.mjs')]);
    await until(() => cli.stderr().includes('loading the CLI'), 'the CLI module to be loading');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(130);
  });

  it('a SIGTERM caught while the CLI module evaluates (no handler can run yet) still stops eval with 130', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-early-'));
    const cli = start(
      ['eval', path.join(root, 'cases/node-busy-loop.yaml'), '--agent', 'nop', '--time-scale', '0.1', '--out', out],
      ['--import', path.join(root, 'test/fixtures/cli/slow-cli-evaluate.mjs')],
    );
    await until(() => cli.stderr().includes('evaluating the CLI'), 'the CLI module to be evaluating');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(130);
    expect(cli.stderr()).toContain('SIGTERM — stopping');
  });

  it("Ctrl-C on view says view's own message, not eval's", async () => {
    const cli = start(['view', path.join(root, 'test/fixtures'), '--port', '0']);
    let stdout = '';
    cli.child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await until(() => stdout.includes('Ctrl-C to stop'), 'the viewer to listen');
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).toContain('stopping the viewer');
    expect(cli.stderr()).not.toContain('--resume');
  });

  it('a run forced onto host-user isolation says it was forced, not that bubblewrap is missing', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-forced-'));
    const cli = start(
      ['eval', path.join(root, 'cases/node-busy-loop.yaml'), '--agent', 'nop', '--time-scale', '0.1', '--out', out],
      [],
      { HANGBENCH_ISOLATION: 'host-user' },
    );
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).toContain('no bubblewrap sandbox: forced by HANGBENCH_ISOLATION=host-user');
    expect(cli.stderr()).not.toContain('bubblewrap is not available');
  });
});
