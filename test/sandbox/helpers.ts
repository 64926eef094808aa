import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { afterEach } from 'vitest';
import { createSandbox, probeHost } from '../../src/sandbox/index.js';
import type { HostCapabilities, Sandbox, SandboxOptions, SandboxProcess } from '../../src/sandbox/index.js';

export const WORKSPACE = fileURLToPath(new URL('../fixtures/sandbox/workspace', import.meta.url));

let counter = 0;
/** Unique per test process, so parallel test files never see each other's processes. */
export function attemptId(label: string): string {
  return `test-${label}-${process.pid}-${++counter}`;
}

export async function makeSandbox(
  label: string,
  options: Partial<Omit<SandboxOptions, 'capabilities'>> & {
    capabilities?: (caps: HostCapabilities) => HostCapabilities;
  } = {},
): Promise<Sandbox> {
  const caps = await probeHost();
  return createSandbox({
    attemptId: attemptId(label),
    workspaceSource: WORKSPACE,
    timeScale: 1,
    ...options,
    capabilities: options.capabilities ? options.capabilities(caps) : caps,
  });
}

/** `makeSandbox` for one test file: every sandbox it makes is disposed after its test. Call it at the file's top level. */
export function sandboxPerTest(): typeof makeSandbox {
  const open: Sandbox[] = [];
  afterEach(async () => {
    for (const sandbox of open.splice(0)) await sandbox.dispose();
  });
  return async (label, options) => {
    const sandbox = await makeSandbox(label, options);
    open.push(sandbox);
    return sandbox;
  };
}

/** Everything a stream printed, with a way to await a line that matches. Reading also keeps the pipe drained. */
export class Output {
  text = '';
  #waiters: (() => void)[] = [];
  /** Maps a pid the command printed to the host pid (they differ in a bubblewrap sandbox's PID namespace). */
  #hostPid: (pid: number) => number = (pid) => pid;

  static of(sandbox: Sandbox, proc: SandboxProcess): Output {
    const out = new Output(proc.stdout, proc.stderr);
    out.#hostPid = (pid) => sandbox.hostPid(pid) ?? pid;
    return out;
  }

  constructor(...streams: Readable[]) {
    for (const stream of streams) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        this.text += chunk;
        for (const wake of this.#waiters.splice(0)) wake();
      });
    }
  }

  async line(pattern: RegExp): Promise<RegExpMatchArray> {
    for (;;) {
      const match = pattern.exec(this.text);
      if (match) return match;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** The host pid of the process that printed itself as "<role> <pid>" (the pid it sees inside the sandbox). */
  async pid(role: string): Promise<number> {
    const match = await this.line(new RegExp(`^${role} (\\d+)`, 'm'));
    return this.#hostPid(Number(match[1]));
  }
}

export function run(
  sandbox: Sandbox,
  command: string,
  commandId = 1,
  env?: Record<string, string>,
): { proc: SandboxProcess; out: Output } {
  const proc = sandbox.spawn(command, { commandId, env });
  return { proc, out: Output.of(sandbox, proc) };
}

export function procState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** Live (non-zombie) processes carrying the attempt marker: written here independently of src/, as the proof. */
export function markedProcesses(attempt: string): number[] {
  const marker = `HANGBENCH_ATTEMPT=${attempt}`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker) && procState(pid) !== 'Z';
      } catch {
        return false;
      }
    });
}
