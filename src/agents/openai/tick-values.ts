import type { ProcessSample, Tick, TickOutput } from '../../types/process.js';

/** The placeholders a tick template may use; each is a ready-made piece of text. */
export const TICK_PLACEHOLDERS = [
  'seq',
  'command_id',
  'elapsed',
  'since_output',
  'total_output',
  'output',
  'classification',
  'reason',
  'processes',
  'silence',
] as const;

const MAX_PROCESSES = 12;
const MAX_ARGS = 80;

/** `output` is passed separately because a quiet prompt style gathers the output of ticks it did not speak. */
export function tickValues(tick: Tick, output: TickOutput, silenceMs: number): Record<(typeof TICK_PLACEHOLDERS)[number], string> {
  return {
    seq: String(tick.seq),
    command_id: String(tick.commandId),
    elapsed: seconds(tick.elapsedMs),
    since_output: tick.totalOutputBytes === 0 ? 'no output yet' : `last output ${seconds(tick.sinceOutputMs)} ago`,
    total_output: formatBytes(tick.totalOutputBytes),
    output: outputBlock(output),
    classification: tick.classification,
    reason: tick.reason,
    processes: tick.snapshot.source === 'proc' ? processTree(tick.snapshot.processes) : '(process details unavailable on this host)',
    silence: seconds(silenceMs),
  };
}

export function outputBlock(output: TickOutput): string {
  if (output.bytes === 0) {
    return output.partialLine && output.text ? `(no new output; the last line is unfinished: ${JSON.stringify(output.text)})` : '(no new output)';
  }
  const notes = [formatBytes(output.bytes)];
  if (output.cutBytes > 0) notes.push(`${formatBytes(output.cutBytes)} cut from the middle`);
  if (output.foldedLines > 0) notes.push(`${output.foldedLines} repeated lines folded`);
  if (output.partialLine) notes.push('last line unfinished');
  return `new output (${notes.join(', ')}):\n${output.text.replace(/\n$/, '')}`;
}

/** Parents before children, indented, so the model reads a tree. */
export function processTree(processes: readonly ProcessSample[]): string {
  if (processes.length === 0) return '(no processes left)';
  const byPid = new Map(processes.map((sample) => [sample.pid, sample]));
  const lines: string[] = [];
  const seen = new Set<number>();
  const visit = (sample: ProcessSample, depth: number): void => {
    if (seen.has(sample.pid)) return;
    seen.add(sample.pid);
    lines.push(`${'  '.repeat(depth)}${processLine(sample)}`);
    for (const pid of sample.children) {
      const child = byPid.get(pid);
      if (child) visit(child, depth + 1);
    }
  };
  for (const sample of processes) if (!byPid.has(sample.ppid)) visit(sample, 0);
  for (const sample of processes) visit(sample, 0);
  const hidden = lines.length - MAX_PROCESSES;
  return [...lines.slice(0, MAX_PROCESSES), ...(hidden > 0 ? [`… ${hidden} more processes`] : [])].join('\n');
}

function processLine(sample: ProcessSample): string {
  const parts = [`pid ${sample.pid}`, sample.command, `state ${sample.state}${sample.wchan ? ` (${sample.wchan})` : ''}`];
  parts.push(`${Math.round(sample.cpuPercent)}% cpu`, `${Math.round(sample.rssKb / 1024)} MB`);
  if (sample.threads > 1) parts.push(`${sample.threads} threads`);
  if (sample.fds.pipes > 0) parts.push(`${sample.fds.pipes} pipes`);
  const args = sample.args.length > MAX_ARGS ? `${sample.args.slice(0, MAX_ARGS - 1)}…` : sample.args;
  return `${parts.join(', ')}${args && args !== sample.command ? ` — ${args}` : ''}`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
