import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { describeOnLinux } from '../support/capability.js';

const HARNESS = fileURLToPath(new URL('../fixtures/sandbox/inherited-fds-harness.mjs', import.meta.url));
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Report {
  readonly isolation: string;
  readonly inherited: readonly string[];
  readonly commands: readonly string[];
  readonly holders: readonly string[];
}

/** Runs the fixture harness as a CI runner would: fd 40 a file it appends to, fd 41 a stream it reads for EOF (a socketpair). */
async function harnessWithInheritedFds(): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'hangbench-inherited-'));
  scratch.push(dir);
  const file = openSync(join(dir, 'step.log'), 'a');
  // fds 40 and 41: Node's own spawn happens to drop an inherited fd 3 or 4, not the higher ones (make's jobserver, 251…)
  const stdio = ['ignore', 'pipe', 'pipe', ...Array<'ignore'>(37).fill('ignore'), file, 'pipe'] as const;
  const child = spawn(process.execPath, [HARNESS], { stdio: [...stdio] });
  closeSync(file);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect({ code, err: code === 0 ? '' : err }).toEqual({ code: 0, err: '' });
  return JSON.parse(out) as Report;
}

describeOnLinux('descriptors the harness inherited', () => {
  it('reach no process the sandbox starts: not the jail, a command or an exec agent', async () => {
    const report = await harnessWithInheritedFds();
    // the fixture did inherit both (without close-on-exec, so Node would pass them on to every child)
    expect(report.inherited).toHaveLength(2);
    expect(report.inherited[1]).toMatch(/^socket:/);
    expect(report.commands).toEqual(expect.arrayContaining(['sleep']));
    // (the bridge's listener hands its socket over and exits before the scan: it is started the same way)
    if (report.isolation === 'bubblewrap')
      expect(report.commands).toEqual(expect.arrayContaining(['bwrap', 'nsenter']));
    expect(report.holders).toEqual([]);
  }, 60_000);
});
