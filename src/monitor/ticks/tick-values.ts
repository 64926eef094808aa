import type { ProcessSample, Tick, TickOutput } from '../../types/process.js';
import { formatBytes, seconds } from '../../types/units.js';
import { describeSyscall } from '../sample/syscall-names.js';
import { depthsOf } from '../sample/tree.js';
import { waitKind, type WaitKind } from '../classify/wait-kind.js';

/**
 * The pieces of text a tick is made of, the same for every agent and every prompt: a tick template (the default
 * one in render.ts, or a prompt's tick.md) only arranges them, so two prompt styles differ in wording, never in
 * how a process, a byte count or a duration reads.
 */
export const TICK_PLACEHOLDERS = [
  'seq',
  'command_id',
  'elapsed',
  'since_output',
  'silence',
  'total_output',
  'output',
  'classification',
  'reason',
  'processes',
] as const;

export type TickValues = Record<(typeof TICK_PLACEHOLDERS)[number], string>;

const MAX_PROCESS_LINES = 12;
const MAX_ARGS = 80;
const INPUT_WAIT: ReadonlySet<WaitKind> = new Set(['stdin-read', 'event-loop', 'pipe-read', 'other']);

export function tickValues(tick: Tick): TickValues {
  return {
    seq: String(tick.seq),
    command_id: String(tick.commandId),
    elapsed: seconds(tick.elapsedMs),
    since_output: sinceOutput(tick),
    silence: seconds(tick.sinceOutputMs),
    total_output: formatBytes(tick.totalOutputBytes),
    output: outputBlock(tick.output),
    classification: tick.classification,
    reason: tick.reason,
    processes:
      tick.snapshot.source === 'proc' ? processTree(tick.snapshot.processes) : 'processes: (no /proc on this host)',
  };
}

function sinceOutput(tick: Tick): string {
  if (tick.totalOutputBytes === 0) return 'no output yet';
  return tick.sinceOutputMs >= 1000
    ? `no output for ${seconds(tick.sinceOutputMs)}`
    : `last output ${seconds(tick.sinceOutputMs)} ago`;
}

/** The output block; `keepLines` keeps only that many lines of its end (the tail is what a hang shows last). */
export function outputBlock(output: TickOutput, keepLines?: number, rewrite?: (text: string) => string): string {
  const { text, bytes, cutBytes, foldedLines, partialLine } = output;
  if (bytes === 0) {
    // The window repeats a pending unfinished line (a prompt) even when nothing new came.
    return partialLine && text
      ? `no new output; the last line is still unfinished: ${JSON.stringify(text)}`
      : 'no new output';
  }
  const notes = [formatBytes(bytes)];
  if (cutBytes > 0) notes.push(`${formatBytes(cutBytes)} cut`);
  if (foldedLines > 0) notes.push(`${foldedLines} repeated lines folded`);
  if (partialLine) notes.push('ends without newline');
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const lines = body.split('\n');
  const kept = keepLines === undefined ? lines : lines.slice(Math.max(0, lines.length - keepLines));
  return [`new output (${notes.join(', ')}):`, ...kept.map((line) => `| ${rewrite ? rewrite(line) : line}`)].join('\n');
}

/** Lines of output in a tick's output block (what a budget may cut). */
export function outputLines(output: TickOutput): number {
  if (output.bytes === 0) return 0;
  return (output.text.endsWith('\n') ? output.text.slice(0, -1) : output.text).split('\n').length;
}

/** How processTree writes its lines (a tick cut to a budget writes them shorter). */
export interface TreeStyle {
  /** command lines longer than this are cut. */
  readonly maxArgs?: number;
  /**
   * 'short': no rss, no `cpu 0%`, no `.constprop.0`-like suffix on a wait channel; 'count': thread states only as a
   * count too; 'full' (absent): all of it.
   */
  readonly compact?: (pid: number) => 'full' | 'short' | 'count';
  /** applied to each command line before it is cut (the budget's path shortening). */
  readonly text?: (text: string) => string;
}

/** Parents before their children, indented, so the tree reads as one; `only` keeps those pids (in tree order). */
export function processTree(
  processes: readonly ProcessSample[],
  only?: ReadonlySet<number>,
  style: TreeStyle = {},
): string {
  if (processes.length === 0) return 'processes: none left';
  const depths = depthsOf(processes);
  const ordered = treeOrder(processes).filter((process) => only === undefined || only.has(process.pid));
  const shown = ordered
    .slice(0, MAX_PROCESS_LINES)
    .map((process) => '  '.repeat(depths.get(process.pid) ?? 0) + processLine(process, style));
  const hidden = ordered.length - shown.length;
  return ['processes:', ...shown, ...(hidden > 0 ? [`… ${hidden} more processes`] : [])].join('\n');
}

function processLine(process: ProcessSample, style: TreeStyle): string {
  const compact = style.compact?.(process.pid) ?? 'full';
  const short = compact !== 'full';
  const maxArgs = style.maxArgs ?? MAX_ARGS;
  const wchan = short ? bareSymbol(process.wchan) : process.wchan;
  const parts = [String(process.innerPid ?? process.pid), process.command, process.state + (wchan ? ` ${wchan}` : '')];
  if (process.syscall && process.wchan) parts.push(describeSyscall(process.syscall));
  const cpu = Math.round(process.cpuPercent);
  if (!short || cpu > 0) parts.push(`cpu ${cpu}%`);
  if (!short) parts.push(`rss ${(process.rssKb / 1024).toFixed(0)}MB`);
  if (process.threads > 1)
    parts.push(
      compact === 'count' ? `threads ${process.threads}` : `threads ${process.threads}: ${threadsText(process, short)}`,
    );
  // Whether a process could read the agent's input matters only for one that waits on input.
  if (process.stdinIsHarnessPipe && INPUT_WAIT.has(waitKind(process))) parts.push('stdin=agent');
  const whole = style.text ? style.text(process.args) : process.args;
  const args = whole.length > maxArgs ? `${whole.slice(0, maxArgs - 1)}…` : whole;
  return `${parts.join(' ')}${args && args !== process.command ? ` · ${args}` : ''}`;
}

/**
 * The other threads: one alike stands alone with its tid and what it is blocked in (`tid 12 pipe_read read(fd 3)`,
 * a name of its own first: `worker tid 12 …`); several alike are counted (`futex_do_wait×7`).
 */
function threadsText(process: ProcessSample, short = false): string {
  const described = process.otherThreads ?? [];
  const groups = new Map<string, { count: number; alone: string }>();
  for (const thread of described) {
    const name = thread.name === process.command ? '' : `${thread.name} `;
    const doing = `${(short ? bareSymbol(thread.wchan) : thread.wchan) || 'running'}${thread.syscall && thread.wchan ? ` ${describeSyscall(thread.syscall)}` : ''}`;
    const key = `${name}${doing}`;
    const group = groups.get(key) ?? { count: 0, alone: `${name}tid ${thread.tid} ${doing}` };
    group.count += 1;
    groups.set(key, group);
  }
  const parts = [...groups].map(([key, group]) => (group.count === 1 ? group.alone : `${key}×${group.count}`));
  // threads past the described ones (and traces from before they were described) by wait channel alone
  const rest = summarize(process.threadWchans.slice(described.length));
  return [...parts, ...(rest === '' ? [] : [rest])].join(', ');
}

/** A kernel symbol without the compiler's clone suffix: `poll_schedule_timeout.constprop.0` → `poll_schedule_timeout`. */
function bareSymbol(symbol: string): string {
  const dot = symbol.indexOf('.');
  return dot > 0 ? symbol.slice(0, dot) : symbol;
}

/** `futex_do_wait×2, running×1` */
function summarize(wchans: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const wchan of wchans) counts.set(wchan || 'running', (counts.get(wchan || 'running') ?? 0) + 1);
  return [...counts].map(([wchan, count]) => `${wchan}×${count}`).join(', ');
}

function treeOrder(processes: readonly ProcessSample[]): ProcessSample[] {
  const byPid = new Map(processes.map((process) => [process.pid, process]));
  const out: ProcessSample[] = [];
  const seen = new Set<number>();
  const visit = (process: ProcessSample): void => {
    if (seen.has(process.pid)) return;
    seen.add(process.pid);
    out.push(process);
    for (const pid of process.children) {
      const child = byPid.get(pid);
      if (child) visit(child);
    }
  };
  for (const process of processes) if (!byPid.has(process.ppid)) visit(process);
  for (const process of processes) visit(process);
  return out;
}
