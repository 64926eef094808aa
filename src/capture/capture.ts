import { access, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { HostCapabilities } from '../sandbox/index.js';
import { formatDuration } from '../types/duration.js';
import { HangbenchError } from '../types/errors.js';
import { looksHung, type Tick } from '../types/process.js';
import { writeDraft, type WrittenDraft } from './draft-case.js';
import { hangClassOf } from './hang-class.js';
import { stageWorkspace } from './stage-workspace.js';
import { watchForHang, type WatchResult } from './watch-hang.js';
import type { Terminal } from '../types/terminal.js';

export interface CaptureInput {
  readonly argv: readonly string[];
  readonly cwd: string;
  /** where cases/ and fixtures/ are written. */
  readonly out: string;
  readonly id?: string;
  readonly include?: readonly string[];
  readonly terminal: Terminal;
  readonly intervalMs: number;
  readonly hungTicks: number;
  readonly maxMs: number;
  readonly force: boolean;
  readonly capabilities: HostCapabilities;
  readonly stop: AbortSignal;
  readonly onTick?: (tick: Tick) => void;
}

export type CaptureResult =
  | ({ readonly ok: true; readonly id: string; readonly watch: WatchResult } & WrittenDraft)
  | { readonly ok: false; readonly id: string; readonly watch: WatchResult; readonly reason: string };

/** A hang the user hits, turned into a draft case: stage the workspace, watch the command in a sandbox, write the draft. */
export async function capture(input: CaptureInput): Promise<CaptureResult> {
  if (input.argv.length === 0)
    throw new HangbenchError('USAGE', 'capture needs the command after --, e.g. hangbench capture -- npm test');
  const repro = input.argv.length === 1 ? input.argv[0]! : input.argv.map(shellQuote).join(' ');
  const id = input.id ?? caseIdOf(input.argv);
  if (!/^[a-z0-9-]+$/.test(id))
    throw new HangbenchError('USAGE', `--id ${id}: a case id is lowercase letters, digits and - only`);
  const caseFile = path.join(input.out, 'cases', `${id}.yaml`);
  const fixtureDir = path.join(input.out, 'fixtures', id);
  const taken = (await exists(caseFile)) || (await exists(fixtureDir));
  if (taken && !input.force)
    throw new HangbenchError(
      'USAGE',
      `${path.relative(input.cwd, caseFile)} or its fixture already exists; pass --id NEW-ID or --force`,
    );

  const staged = await stageWorkspace(input.cwd, input.include);
  const logDir = path.join(staged.dir, '..', `${path.basename(staged.dir)}-log`);
  await mkdir(logDir, { recursive: true });
  try {
    const watch = await watchForHang({
      command: repro,
      workspace: staged.dir,
      terminal: input.terminal,
      intervalMs: input.intervalMs,
      hungTicks: input.hungTicks,
      maxMs: input.maxMs,
      capabilities: input.capabilities,
      logDir,
      stop: input.stop,
      ...(input.onTick ? { onTick: input.onTick } : {}),
    });
    if (watch.end === 'exited') {
      const how = watch.exit?.signal ?? `exit ${watch.exit?.exitCode}`;
      return {
        ok: false,
        id,
        watch,
        reason: `the command ended by itself (${how} after ${formatDuration(watch.elapsedMs)}): it did not hang here, so there is no case to draft`,
      };
    }
    if (watch.end === 'max' && !watch.ticks.some((tick) => looksHung(tick.classification))) {
      return {
        ok: false,
        id,
        watch,
        reason: `no tick classified it as hung in ${formatDuration(watch.elapsedMs)} (it kept making progress); press Ctrl-C once it hangs, or raise --max`,
      };
    }
    const lastHung = watch.ticks.findLast((tick) => looksHung(tick.classification));
    if (taken) await Promise.all([rm(caseFile, { force: true }), rm(fixtureDir, { recursive: true, force: true })]);
    const written = await writeDraft(
      {
        id,
        repro,
        terminal: input.terminal,
        hangClass: hangClassOf(lastHung, input.terminal),
        lastLine: lastLine(watch.tail),
        ticks: watch.ticks,
        intervalMs: input.intervalMs,
        ended: endWords(watch, input.hungTicks),
        workspace: staged.dir,
      },
      input.out,
    );
    return { ok: true, id, watch, ...written };
  } finally {
    await rm(staged.dir, { recursive: true, force: true });
    await rm(logDir, { recursive: true, force: true });
  }
}

function endWords(watch: WatchResult, hungTicks: number): string {
  const after = formatDuration(watch.elapsedMs);
  if (watch.end === 'hung') return `hung for ${hungTicks} ticks in a row after ${after}`;
  if (watch.end === 'stopped') return `stopped by the user after ${after}`;
  return `gave up after ${after}`;
}

/** The last line with text in it, trimmed: a literal onset that a re-run prints again. */
export function lastLine(tail: string): string | null {
  const lines = tail
    .split(/\r?\n|\r/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  return lines.at(-1)?.trim() ?? null;
}

const INTERPRETERS = new Set([
  'node',
  'python',
  'python3',
  'bash',
  'sh',
  'npx',
  'npm',
  'run',
  'perl',
  'ruby',
  'env',
  'exec',
  '-c',
]);

/** `bash scripts/ask.sh --yes` → `ask-yes`: the words of the command that name it, without interpreters and extensions. */
function caseIdOf(argv: readonly string[]): string {
  const words = argv
    .flatMap((arg) => arg.split(/\s+/))
    .filter((word) => !INTERPRETERS.has(word))
    .map((word) => path.basename(word).replace(/\.[a-z0-9]+$/i, ''))
    .map((word) =>
      word
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, ''),
    )
    .filter((word) => word !== '');
  const id = words.slice(0, 4).join('-').slice(0, 40).replace(/-+$/, '');
  return id === '' ? 'captured-hang' : id;
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

async function exists(target: string): Promise<boolean> {
  return access(target).then(
    () => true,
    () => false,
  );
}
