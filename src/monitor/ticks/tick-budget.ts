import type { Tick, WaitRelation } from '../../types/process.js';
import type { Template } from '../../types/template.js';
import { outputBlock, outputLines, processTree, tickValues } from './tick-values.js';

/** A tick rendered within a token budget: how many tokens, and how they are counted (the run's tokenizer). */
export interface TickBudget {
  readonly tokens: number;
  readonly count: (text: string) => number;
}

/** Command lines are cut shorter in a tick that had to be cut (a temp path tokenizes into dozens of tokens). */
const BUDGET_ARGS = 40;

/**
 * Renders a tick within a budget: the reason line and the culprit's chain (the processes its relations name) first,
 * then as many of the output's last lines as fit, then the other processes; what was cut is said in one line.
 * A tick that fits whole is rendered as it is.
 */
export function renderWithin(tick: Tick, template: Template, budget: TickBudget): string {
  const values = tickValues(tick);
  const whole = template.render(values);
  if (budget.count(whole) <= budget.tokens || tick.snapshot.source !== 'proc') return whole;
  const processes = tick.snapshot.processes;
  const chain = chainOf(tick);
  const others = processes.filter((process) => !chain.has(process.pid));
  const lines = outputLines(tick.output);
  const render = (keepLines: number, keepOthers: number): string => {
    const shown = new Set([...chain, ...others.slice(0, keepOthers).map((process) => process.pid)]);
    const cut = [
      lines > keepLines ? `${lines - keepLines} of ${lines} output lines` : '',
      processes.length > shown.size ? `${processes.length - shown.size} of ${processes.length} processes` : '',
    ].filter(Boolean);
    const note = cut.length > 0 ? `\n(cut to fit: ${cut.join(', ')})` : '';
    const output = tick.output.bytes === 0 || keepLines > 0 ? outputBlock(tick.output, keepLines) : 'new output (cut)';
    return template.render({ ...values, output, processes: processTree(processes, shown, BUDGET_ARGS) + note });
  };
  const fits = (text: string): boolean => budget.count(text) <= budget.tokens;
  const keepLines = largest(lines, (k) => fits(render(k, 0)));
  const keepOthers = largest(others.length, (k) => fits(render(keepLines, k)));
  return render(keepLines, keepOthers);
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
    case 'futex':
    case 'thread':
      return [];
  }
}
