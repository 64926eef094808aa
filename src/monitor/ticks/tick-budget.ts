import type { Tick, TickOutput, WaitRelation } from '../../types/process.js';
import type { Template } from '../../types/template.js';
import { outputBlock, outputLines, processTree, tickValues, type TreeStyle } from './tick-values.js';

/** A tick rendered within a token budget: how many tokens, and how they are counted (the run's tokenizer). */
export interface TickBudget {
  readonly tokens: number;
  readonly count: (text: string) => number;
}

/** Command lines are cut shorter in a tick that had to be cut (a temp path tokenizes into dozens of tokens). */
const BUDGET_ARGS = 40;

/**
 * An attempt's own folders as the command sees them: its cwd is the workspace (`./`), $HOME and $TMPDIR are the
 * attempt's home/ and tmp/. `/tmp/hangbench-<attempt>-XXXXXX/workspace/.pkg/lock` is ~40 tokens; `./.pkg/lock` is 4.
 */
const ATTEMPT_DIR = /(?:\/[\w.+-]+)*\/hangbench-[^\s/'"`]+\/(workspace|home|tmp)(?![\w.-])/g;
const SHORT_DIR: Record<string, string> = { workspace: '.', home: '~', tmp: '$TMPDIR' };

export function shortenPaths(text: string): string {
  return text.replace(ATTEMPT_DIR, (_, dir: string) => SHORT_DIR[dir] ?? dir);
}

/**
 * Renders a tick within a budget: the reason line and the culprit's chain (the processes its relations name) first,
 * then as many of the output's last lines as fit, then the other processes; what was cut is said in one line. A tick
 * that fits whole is rendered as it is. One that does not is written shorter first (the attempt's folders as `./`,
 * `~`, `$TMPDIR`; command lines cut at 40 characters; a pending prompt line to its end), then with its process lines
 * more and more compact (no rss, no `cpu 0%`, thread states only as a count): the reason is never cut, and the
 * culprit's line is always there.
 */
export function renderWithin(tick: Tick, template: Template, budget: TickBudget): string {
  const values = tickValues(tick);
  const whole = template.render(values);
  if (budget.count(whole) <= budget.tokens || tick.snapshot.source !== 'proc') return whole;
  const culprit = tick.culprit ?? null;
  const fullChain = chainOf(tick);
  const lines = outputLines(tick.output);
  const reason = shortenPaths(tick.reason);
  const fits = (text: string): boolean => budget.count(text) <= budget.tokens;
  // Each level is tried in turn until one fits: compact lines for the processes outside the chain, then for the
  // culprit too (its thread states kept), then the chain cut to the culprit, then the culprit's threads counted only
  // (a relation between its threads is in the reason).
  const culpritOnly = new Set(culprit === null ? [] : [culprit]);
  const levels: { compact: Compact | null; chain: ReadonlySet<number> }[] = [
    { compact: null, chain: fullChain },
    { compact: (pid) => (pid === culprit ? 'full' : 'count'), chain: fullChain },
    { compact: (pid) => (pid === culprit ? 'short' : 'count'), chain: fullChain },
    { compact: (pid) => (pid === culprit ? 'short' : 'count'), chain: culpritOnly },
    { compact: () => 'count', chain: culpritOnly },
  ];
  let text = '';
  for (const { compact, chain } of levels) {
    text = renderLevel({ tick, template, values, reason, lines, compact, chain, fits });
    if (fits(text)) break;
  }
  return text;
}

type Compact = NonNullable<TreeStyle['compact']>;

interface Level {
  readonly tick: Tick;
  readonly template: Template;
  readonly values: ReturnType<typeof tickValues>;
  readonly reason: string;
  readonly lines: number;
  readonly compact: Compact | null;
  readonly chain: ReadonlySet<number>;
  readonly fits: (text: string) => boolean;
}

/** One level: the chain, then as many output lines as fit, then as many other processes as fit. */
function renderLevel({ tick, template, values, reason, lines, compact, chain, fits }: Level): string {
  const processes = tick.snapshot.processes;
  const others = processes.filter((process) => !chain.has(process.pid));
  const style: TreeStyle = { maxArgs: BUDGET_ARGS, text: shortenPaths, ...(compact ? { compact } : {}) };
  const render = (keepLines: number, keepOthers: number): string => {
    const shown = new Set([...chain, ...others.slice(0, keepOthers).map((process) => process.pid)]);
    const cut = [
      lines > keepLines ? `${lines - keepLines}/${lines} output lines` : '',
      processes.length > shown.size ? `${processes.length - shown.size}/${processes.length} processes` : '',
      compact && [...shown].some((pid) => compact(pid) !== 'full') ? 'rss, threads' : '',
    ].filter(Boolean);
    const note = cut.length > 0 ? `\n(cut: ${cut.join(', ')})` : '';
    const output =
      tick.output.bytes === 0 || keepLines > 0 ? outputText(tick.output, keepLines, reason) : 'new output (cut)';
    return template.render({ ...values, reason, output, processes: processTree(processes, shown, style) + note });
  };
  const keepLines = largest(lines, (k) => fits(render(k, 0)));
  const keepOthers = largest(others.length, (k) => fits(render(keepLines, k)));
  return render(keepLines, keepOthers);
}

/**
 * A pending unfinished line (a prompt) repeated in a tick with no new output keeps only its end, and is not repeated
 * where the reason already quotes it.
 */
const PENDING_CHARS = 60;
function outputText(output: TickOutput, keepLines: number, reason: string): string {
  if (output.bytes > 0 || !output.partialLine) return outputBlock(output, keepLines, shortenPaths);
  const tail = output.text.trim().slice(-PENDING_CHARS);
  if (tail !== '' && reason.includes(tail)) return 'no new output; the last line is still the prompt the reason quotes';
  const text = output.text.length <= PENDING_CHARS ? output.text : `…${output.text.slice(-PENDING_CHARS)}`;
  return outputBlock({ ...output, text }, keepLines, shortenPaths);
}

/** The largest k in 0..max with ok(k), for ok monotone (true up to some k, then false); 0 when none fits. */
function largest(max: number, ok: (k: number) => boolean): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (ok(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The culprit and the processes its relations name (not their parents: a deep wrapper chain would fill the budget). */
function chainOf(tick: Tick): Set<number> {
  const chain = new Set<number>();
  const culprit = tick.culprit ?? null;
  if (culprit === null) return chain;
  chain.add(culprit);
  for (const relation of tick.snapshot.waits?.relations ?? []) {
    const named = namedBy(relation);
    if (relation.pid === culprit || named.includes(culprit)) for (const pid of [relation.pid, ...named]) chain.add(pid);
  }
  return chain;
}

function namedBy(relation: WaitRelation): number[] {
  switch (relation.kind) {
    case 'pipe':
      return relation.others.map((other) => other.pid);
    case 'lock':
      return relation.holder ? [relation.holder.pid] : [];
    case 'socket':
      return relation.peerPid === null ? [] : [relation.peerPid];
    case 'child':
      return [relation.child.pid];
    case 'cycle':
      return relation.members.map((member) => member.pid);
    case 'stopped':
      return [
        ...relation.waiters.map((waiter) => waiter.pid),
        ...(relation.cause.by === 'tracer' && relation.cause.tracer ? [relation.cause.tracer.pid] : []),
      ];
    case 'futex':
    case 'thread':
    case 'idle':
      return [];
  }
}
