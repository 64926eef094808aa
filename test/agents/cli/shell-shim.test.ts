import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIDE, shellShim } from '../../../src/agents/cli/shell-shim.js';

/**
 * The shell shim as an agent's tool meets it, on real processes: a signal sent to the shim alone reaches the command as
 * it would without the shim, one sent to the whole process group reaches it once, and the copy of its output survives
 * a group signal the command itself survives.
 */
let dir: string;
let shim: string;
let observe: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hangbench-shim-'));
  shim = path.join(dir, 'bash');
  observe = path.join(dir, 'observe');
  await writeFile(shim, shellShim().replaceAll(INSIDE.realBash, '/usr/bin/bash'), { mode: 0o755 });
  await import('node:fs/promises').then(({ mkdir }) => mkdir(observe));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A command that counts the SIGTERMs it gets, says so half a second after the first, and exits 3.
const COUNTER = [
  'import signal, sys, time',
  'n = 0',
  'def on(sig, frame):',
  '    global n; n += 1',
  'signal.signal(signal.SIGTERM, on)',
  'print("ready", flush=True)',
  'start = time.time()',
  'while n == 0 and time.time() - start < 20: time.sleep(0.05)',
  'time.sleep(0.5)',
  'print("count", n, flush=True)',
  'sys.exit(3)',
].join('\n');

interface Ran {
  readonly child: ChildProcessWithoutNullStreams;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The shim started as a tool starts a command (`bash -c CMD`, its own process group), the harness's ack answered. */
async function startShim(command: string): Promise<Ran> {
  const child = spawn(shim, ['-c', command], {
    env: { ...process.env, HANGBENCH_OBSERVE: observe },
    detached: true,
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const start = path.join(observe, `${child.pid}.start`);
  await until(() => existsSync(start));
  await writeFile(path.join(observe, `${child.pid}.ack`), 'go\n');
  return { child, output: () => text, exited };
}

async function until(done: () => boolean): Promise<void> {
  for (let tries = 0; !done(); tries++) {
    if (tries > 400) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the shell shim and signals', () => {
  it('passes a SIGTERM sent to the shim alone on to the command, and reports it', async () => {
    const ran = await startShim(`python3 -c '${COUNTER}'`);
    await until(() => ran.output().includes('ready'));
    process.kill(ran.child.pid!, 'SIGTERM');
    expect(await ran.exited).toEqual({ code: 3, signal: null });
    expect(ran.output()).toContain('count 1');
    expect(await readFile(path.join(observe, `${ran.child.pid}.exit`), 'utf8')).toBe('3 TERM\n');
  }, 30_000);

  it('a SIGTERM to the whole group reaches the command once, and its output after it is still copied', async () => {
    const ran = await startShim(`python3 -c '${COUNTER}'`);
    await until(() => ran.output().includes('ready'));
    process.kill(-ran.child.pid!, 'SIGTERM');
    expect(await ran.exited).toEqual({ code: 3, signal: null });
    expect(ran.output()).toContain('count 1');
    expect(await readFile(path.join(observe, `${ran.child.pid}.out`), 'utf8')).toContain('count 1');
  }, 30_000);

  it('keeps SIGINT as the tool gave it, stdin, the exit status and a death by a signal', async () => {
    const interrupted = await startShim(
      `python3 -c 'import time
print("ready", flush=True)
try:
    time.sleep(20)
except KeyboardInterrupt:
    print("interrupted", flush=True)'`,
    );
    await until(() => interrupted.output().includes('ready'));
    process.kill(-interrupted.child.pid!, 'SIGINT');
    expect(await interrupted.exited).toEqual({ code: 0, signal: null });
    expect(interrupted.output()).toContain('interrupted');
    const reader = await startShim('read line; echo "got $line"; exit 5');
    reader.child.stdin.end('hello\n');
    expect(await reader.exited).toEqual({ code: 5, signal: null });
    expect(reader.output()).toContain('got hello');
    const killed = await startShim('kill -TERM $$');
    expect(await killed.exited).toEqual({ code: null, signal: 'SIGTERM' });
  }, 30_000);

  it('ends with the command, not with a process it left holding the output', async () => {
    const ran = await startShim('sleep 1000 & echo "left $!"; exit 4');
    try {
      expect(await ran.exited).toEqual({ code: 4, signal: null });
      expect(await readFile(path.join(observe, `${ran.child.pid}.exit`), 'utf8')).toBe('4 \n');
      expect(ran.output()).toMatch(/left \d+/);
    } finally {
      const left = /left (\d+)/.exec(ran.output())?.[1];
      if (left) process.kill(Number(left), 'SIGKILL');
    }
  }, 30_000);
});
