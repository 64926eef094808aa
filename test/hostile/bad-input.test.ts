import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const doc = path.join(projectRoot, 'docs/bad-input.md');

interface Row {
  readonly input: string;
  readonly command: string;
  readonly fragments: readonly string[];
  readonly exit: number;
}

/** The table of docs/bad-input.md: the doc is the test's data, so it cannot drift from what hangbench says. */
async function rows(): Promise<Row[]> {
  const table = (await readFile(doc, 'utf8'))
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Input'));
  return table.map((line) => {
    const cells = line.slice(2, -2).split(' | ');
    const [input = '', command = '', message = '', exit = ''] = cells;
    const fragments = [...message.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    return { input, command: /^`hangbench (.*)`$/.exec(command)?.[1] ?? command, fragments, exit: Number(exit) };
  });
}

function captureIO(): { io: CliIO; output: () => string } {
  let text = '';
  const sink = { write: (chunk: string | Uint8Array) => ((text += String(chunk)), true) } as unknown as CliIO['stdout'];
  const io: CliIO = {
    stdout: sink,
    stderr: sink,
    env: { CI: '1' },
    cwd: projectRoot,
    shutdown: new AbortController().signal,
  };
  return { io, output: () => text };
}

async function filesUnder(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    names.filter((entry) => entry.isFile()).map((entry) => readFile(path.join(entry.parentPath, entry.name), 'utf8')),
  );
  return texts.join('\n');
}

describe('docs/bad-input.md: every bad input gets its documented message and exit code', async () => {
  const table = await rows();

  it('has the rows the issue asks for', () => {
    expect(table.length).toBeGreaterThanOrEqual(20);
    for (const row of table) expect(row.fragments.length, row.input).toBeGreaterThan(0);
  });

  it.each(table.map((row) => [row.input, row] as const))('%s', async (_input, row) => {
    const scratch = await mkdtemp(path.join(tmpdir(), 'hangbench-bad-input-'));
    const out = path.join(scratch, 'out');
    const empty = await mkdtemp(path.join(tmpdir(), 'hangbench-empty-'));
    const fifo = path.join(scratch, 'case.yaml');
    if (row.command.includes('$FIFO')) execFileSync('mkfifo', [fifo]);
    const argv = row.command
      .split(' ')
      .map((arg) => arg.replace('$OUT', out).replace('$EMPTY', empty).replace('$FIFO', fifo));
    const { io, output } = captureIO();
    const exit = await main(argv, io);
    const seen = output() + (row.command.includes('$OUT') ? await filesUnder(out).catch(() => '') : '');
    for (const fragment of row.fragments) expect(seen, `${row.command}\n${seen.slice(0, 2_000)}`).toContain(fragment);
    expect(exit, seen.slice(0, 2_000)).toBe(row.exit);
  });
});
