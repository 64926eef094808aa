import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HangClass } from '../types/case.js';
import { formatDuration } from '../types/duration.js';
import type { Tick } from '../types/process.js';
import type { Terminal } from '../types/terminal.js';

export interface Draft {
  readonly id: string;
  readonly repro: string;
  readonly terminal: Terminal;
  readonly hangClass: HangClass;
  /** the last line of output before the hang; null when there was none (then the onset is the start). */
  readonly lastLine: string | null;
  readonly ticks: readonly Tick[];
  readonly intervalMs: number;
  readonly ended: string;
  readonly workspace: string;
}

export interface WrittenDraft {
  readonly caseFile: string;
  readonly fixtureDir: string;
}

/** Writes cases/<id>.yaml and fixtures/<id>/{workspace/, hidden/check.sh, solution.patch} under `root`. */
export async function writeDraft(draft: Draft, root: string): Promise<WrittenDraft> {
  const fixtureDir = path.join(root, 'fixtures', draft.id);
  const caseFile = path.join(root, 'cases', `${draft.id}.yaml`);
  await mkdir(path.join(fixtureDir, 'hidden'), { recursive: true });
  await mkdir(path.dirname(caseFile), { recursive: true });
  await cp(draft.workspace, path.join(fixtureDir, 'workspace'), { recursive: true, verbatimSymlinks: true });
  await writeFile(path.join(fixtureDir, 'hidden', 'check.sh'), checkStub(draft.id), { mode: 0o755 });
  // Empty: no fix yet. check-cases reports "verify patched" failing until it holds one (git diff --no-index).
  await writeFile(path.join(fixtureDir, 'solution.patch'), '');
  await writeFile(caseFile, caseYaml(draft));
  return { caseFile, fixtureDir };
}

function caseYaml(draft: Draft): string {
  const q = (text: string) => JSON.stringify(text);
  const onset = draft.lastLine === null ? '{ start: true }' : `{ output: ${q(draft.lastLine)} }`;
  const seen = draft.lastLine === null ? 'prints nothing' : `stops after printing ${q(draft.lastLine)}`;
  const lines = [
    `# Drafted by "hangbench capture" (${draft.ended}). Fill in the issue, the hidden check and the fix, then run`,
    `#   hangbench check-cases cases/${draft.id}.yaml`,
    '# which says what is still missing. The ticks the monitor sent are at the end of this file.',
    `id: ${draft.id}`,
    `title: ${q(`${draft.repro} never returns`)}`,
    'kind: hang',
    `fixture: ../fixtures/${draft.id}`,
    '# the issue is what the agent is told: what a user saw, like a bug report, never the fix',
    'issue: |',
    `  \`${draft.repro}\` ${seen} and never returns.`,
    '  Expected: describe what it should do instead.',
    `repro: ${q(draft.repro)}`,
    ...(draft.terminal === 'pty' ? ['terminal: pty'] : []),
    'hang:',
    `  class: ${draft.hangClass}   # from the monitor's classification; see the taxonomy in README.md`,
    `  onset: ${onset}   # the last output before the hang`,
    'budgets:',
    '  tokens: 60000',
    '  wall: 2m',
    '  interrupt: 30s',
    'verify:',
    "  # hidden checks, run on the agent's final workspace with hidden/ copied over it",
    `  - run: ${q(draft.repro)}`,
    '    timeout: 20s',
    '    exit: 0',
    '  - run: sh check.sh',
    '    timeout: 20s',
    '    exit: 0',
    '    stdout: "check ok"',
    'tags: [captured]',
    '',
    `# What the monitor saw (a tick every ${formatDuration(draft.intervalMs)}):`,
    ...draft.ticks.map(
      (tick) =>
        `#   tick ${tick.seq} at ${formatDuration(tick.elapsedMs)}: ${tick.classification} — ${tick.reason.replace(/\s+/g, ' ')}`,
    ),
    ...processLines(draft.ticks.at(-1)),
    '',
  ];
  return lines.join('\n');
}

function processLines(tick: Tick | undefined): string[] {
  if (tick === undefined) return [];
  return [
    '# The process tree at the last tick:',
    ...tick.snapshot.processes.map(
      (process) =>
        `#   ${process.innerPid ?? process.pid} ${process.state} ${process.wchan || '-'} ${process.args.replace(/\s+/g, ' ').slice(0, 100)}`,
    ),
  ];
}

function checkStub(id: string): string {
  return [
    '#!/bin/sh',
    `# Hidden verify check of ${id}, drafted by hangbench capture: it runs on the agent's final workspace.`,
    '# Replace this with a check that passes only once the hang is fixed (and the program still does its job),',
    '# then print "check ok". Until then it fails, and check-cases says so.',
    `echo "hidden/check.sh of ${id} is not written yet" >&2`,
    'exit 1',
    '',
  ].join('\n');
}
