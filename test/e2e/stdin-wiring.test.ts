import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RunSummarySchema } from '../../src/summary/schema.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/hangbench.js');

describe('--stdin pipe,null,tty: one prompt case wired three ways, told apart by what the command saw (--time-scale 0.1)', () => {
  it('hangs on a pipe and a pty, exits at once on /dev/null, each as the trace records it, and the hidden checks fail it unfixed every time', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-stdin-'));
    const args = [bin, 'eval', path.join(root, 'cases/py-confirm-prompt.yaml'), '--stdin', 'pipe,null,tty'];
    args.push('--time-scale', '0.1', '--out', out, '--run-id', 'wired', '--json');
    const { stdout } = await run('node', args, { cwd: root, env: { ...process.env, CI: '1' }, maxBuffer: 1 << 26 });
    const { runDir: _runDir, problems: _problems, ...printed } = JSON.parse(stdout) as Record<string, unknown>;
    const summary = RunSummarySchema.parse(printed);
    const variant = (stdin: string) => `baseline-k2·interval-10s·stdin-${stdin}`;

    // Per wiring: what command.start says the command was spawned with, the repro's own exit (on /dev/null input()
    // meets end of input and the program ends by itself), and its output as the command saw it: a pty turns each
    // newline into CRLF, a pipe and /dev/null pass it through; only /dev/null gives input() an end of file at once.
    const seen: Record<string, unknown> = {};
    for (const stdin of ['pipe', 'null', 'tty']) {
      const dir = path.join(out, 'wired', 'py-confirm-prompt', variant(stdin), '1');
      const trace = await readFile(path.join(dir, 'trace.jsonl'), 'utf8');
      const events = trace
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const start = events.find((event) => event.type === 'command.start' && event.commandId === 1);
      const exit = events.find((event) => event.type === 'command.exit' && event.commandId === 1);
      const log = await readFile(path.join(dir, 'command-1.log'), 'utf8');
      seen[stdin] = {
        wired: start?.stdin,
        killed: exit?.killed,
        ...(stdin === 'null' ? { exitCode: exit?.exitCode } : {}),
        crlf: log.includes('Pending migrations (4):\r\n'),
        lf: log.includes('Pending migrations (4):\n'),
        eof: log.includes('EOFError'),
      };
    }
    expect(seen).toEqual({
      pipe: { wired: 'pipe', killed: true, crlf: false, lf: true, eof: false },
      null: { wired: 'null', killed: false, exitCode: 1, crlf: false, lf: true, eof: true },
      tty: { wired: 'tty', killed: true, crlf: true, lf: false, eof: false },
    });
    expect(summary.stdinWiring).toEqual([
      {
        caseId: 'py-confirm-prompt',
        kind: 'hang',
        cells: [
          { stdin: 'pipe', attempts: 1, reproduced: 1, interrupted: 1, fixed: 0, solved: 0 },
          // the prompt read EOF and exited on its own: it printed its question but never hung
          { stdin: 'null', attempts: 1, reproduced: 0, interrupted: 0, fixed: 0, solved: 0 },
          { stdin: 'tty', attempts: 1, reproduced: 1, interrupted: 1, fixed: 0, solved: 0 },
        ],
      },
    ]);
    const report = await readFile(path.join(out, 'wired', 'report.md'), 'utf8');
    expect(report).toContain('### stdin wiring');
    expect(report).toContain(
      '| py-confirm-prompt | hang | repro 1/1 · killed 1/1 · fixed 0/1 | repro 0/1 · killed 0/1 · fixed 0/1 | repro 1/1 · killed 1/1 · fixed 0/1 |',
    );
    const html = await readFile(path.join(out, 'wired', 'report.html'), 'utf8');
    expect(html).toContain('<h2>stdin wiring</h2>');
    expect(html).toContain(
      '<tr data-case="py-confirm-prompt"><th class="name">py-confirm-prompt</th><td>hang</td><td>repro 1/1 · killed 1/1 · fixed 0/1</td><td>repro 0/1 · killed 0/1 · fixed 0/1</td>',
    );
  }, 180_000);
});
