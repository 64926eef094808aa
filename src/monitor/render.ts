import type { ProcessSample, Tick } from '../types/process.js';
import { formatBytes } from './classify.js';
import { describeSyscall } from './syscall-names.js';
import { depthsOf } from './tree.js';
import { waitKind, type WaitKind } from './wait-kind.js';

/** The default text of a tick for a human or an agent: one header line, the new output, the process tree. */

const MAX_PROCESS_LINES = 12;
const MAX_ARGS = 80;
const INPUT_WAIT: ReadonlySet<WaitKind> = new Set(['stdin-read', 'event-loop', 'pipe-read', 'other']);

export function renderTick(tick: Tick): string {
  const lines = [`${header(tick)} ${tick.classification}: ${tick.reason}`];
  lines.push(...renderOutput(tick));
  if (tick.snapshot.source === 'proc') lines.push(...renderProcesses(tick.snapshot.processes));
  return lines.join('\n');
}

function header(tick: Tick): string {
  const silence =
    tick.totalOutputBytes === 0
      ? 'no output yet'
      : tick.sinceOutputMs >= 1000
        ? `no output for ${seconds(tick.sinceOutputMs)}`
        : `last output ${seconds(tick.sinceOutputMs)} ago`;
  return `[tick ${tick.seq} · ${seconds(tick.elapsedMs)} · ${silence} · ${formatBytes(tick.totalOutputBytes)} total]`;
}

function renderOutput(tick: Tick): string[] {
  const { text, bytes, cutBytes, foldedLines, partialLine } = tick.output;
  if (bytes === 0) {
    // The window repeats a pending unfinished line (a prompt) even when nothing new came.
    return partialLine && text ? [`no new output; the last line is still unfinished: ${JSON.stringify(text)}`] : ['no new output'];
  }
  const notes = [formatBytes(bytes)];
  if (cutBytes > 0) notes.push(`${formatBytes(cutBytes)} cut`);
  if (foldedLines > 0) notes.push(`${foldedLines} repeated lines folded`);
  if (partialLine) notes.push('ends without newline');
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return [`new output (${notes.join(', ')}):`, ...body.split('\n').map((line) => `| ${line}`)];
}

function renderProcesses(processes: readonly ProcessSample[]): string[] {
  if (processes.length === 0) return ['processes: none left'];
  const depths = depthsOf(processes);
  const ordered = treeOrder(processes);
  const shown = ordered.slice(0, MAX_PROCESS_LINES).map((process) => '  '.repeat(depths.get(process.pid) ?? 0) + processLine(process));
  const hidden = ordered.length - shown.length;
  return ['processes:', ...shown, ...(hidden > 0 ? [`… ${hidden} more processes`] : [])];
}

function processLine(process: ProcessSample): string {
  const parts = [String(process.pid), process.command, process.state + (process.wchan ? ` ${process.wchan}` : '')];
  if (process.syscall && process.wchan) parts.push(describeSyscall(process.syscall));
  parts.push(`cpu ${Math.round(process.cpuPercent)}%`, `rss ${(process.rssKb / 1024).toFixed(0)}MB`);
  if (process.threads > 1) parts.push(`threads ${process.threads}: ${summarize(process.threadWchans)}`);
  // Whether a process could read the agent's input matters only for one that waits on input.
  if (process.stdinIsHarnessPipe && INPUT_WAIT.has(waitKind(process))) parts.push('stdin=agent');
  const args = process.args.length > MAX_ARGS ? `${process.args.slice(0, MAX_ARGS - 1)}…` : process.args;
  return `${parts.join(' ')}${args && args !== process.command ? ` · ${args}` : ''}`;
}

/** `futex_do_wait×2, running×1` */
function summarize(wchans: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const wchan of wchans) counts.set(wchan || 'running', (counts.get(wchan || 'running') ?? 0) + 1);
  return [...counts].map(([wchan, count]) => `${wchan}×${count}`).join(', ');
}

/** Parents before their children, depth-first, so indentation reads as a tree. */
function treeOrder(processes: readonly ProcessSample[]): ProcessSample[] {
  const byPid = new Map(processes.map((process) => [process.pid, process]));
  const out: ProcessSample[] = [];
  const visit = (process: ProcessSample): void => {
    if (out.includes(process)) return;
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

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
