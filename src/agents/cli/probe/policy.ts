import type { ProbeSpec } from '../adapter.js';
import type { ModelReply, ToolExchange } from '../api/index.js';

/** What the probe model knows of its attempt: the case's repro and how long to wait on it before interrupting. */
export interface ProbeContext {
  readonly repro: string;
  readonly waitMs: number;
}

export const PROBE_STEPS = ['run', 'poll', 'interrupt', 'finish', 'aside'] as const;
export type ProbeStep = (typeof PROBE_STEPS)[number];

/** One answer of the probe model, and why: recorded on the call's `model.response`. */
export interface ProbeDecision {
  readonly step: ProbeStep;
  readonly reply: ModelReply;
  readonly reason: string;
}

/**
 * The probe model's one policy, stateless: the conversation a request carries holds every tool call it made and what
 * came back, so its earlier steps are replayed from it (run → poll while the command still runs and the wait lasts →
 * interrupt → finish) and the next step is the answer. A call that does not offer the run tool gets the aside text.
 */
export function decide(
  spec: ProbeSpec,
  offered: readonly string[],
  exchanges: readonly ToolExchange[],
  context: ProbeContext,
): ProbeDecision {
  if (!offered.includes(spec.run.tool))
    return { step: 'aside', reply: { text: spec.aside }, reason: `the call offers no ${spec.run.tool} tool` };
  const pollMs = spec.poll ? Math.max(250, Math.min(spec.poll.every, context.waitMs)) : 0;
  const maxPolls = spec.poll ? Math.ceil(context.waitMs / pollMs) : 0;
  const running = spec.running ? new RegExp(spec.running) : null;
  let step: ProbeStep = 'run';
  let reason = 'no tool result yet: run the repro';
  let polls = 0;
  let session: string | null = null;
  for (const exchange of exchanges) {
    const match = running && exchange.result !== null ? running.exec(exchange.result) : null;
    if (match?.[1] !== undefined) session = match[1];
    if (step === 'run' || step === 'poll') {
      const what = step === 'run' ? 'the repro' : `poll ${polls}`;
      if (match && spec.poll && polls < maxPolls) {
        step = 'poll';
        polls += 1;
        reason = `${what} came back still running: poll ${polls} of ${maxPolls} (${pollMs} ms each, ${context.waitMs} ms in all)`;
      } else if (match || spec.interrupt.kind === 'kill') {
        step = 'interrupt';
        reason = match
          ? `${what} came back still running${spec.poll ? ` after ${polls} poll(s)` : ''}: interrupt (${spec.interrupt.kind})`
          : `${what} came back without "running": ${spec.interrupt.kind} what is left of it`;
      } else {
        step = 'finish';
        reason = `${what} came back without "running": nothing to ${spec.interrupt.kind === 'stop' ? 'stop' : 'send keys to'}, finish`;
      }
    } else {
      step = 'finish';
      reason = 'the interrupt came back: finish';
    }
  }
  const vars: Record<string, string | number> = {
    repro: context.repro,
    repro_pattern: reproPattern(context.repro),
    repro_kill: reproKill(context.repro),
    wait_ms: context.waitMs,
    wait_s: Math.ceil(context.waitMs / 1000),
    poll_ms: pollMs,
    poll_s: Math.ceil(pollMs / 1000),
    ...(session === null ? {} : { session: /^\d+$/.test(session) ? Number(session) : session }),
  };
  const call =
    step === 'run' ? spec.run : step === 'poll' ? spec.poll : step === 'interrupt' ? spec.interrupt : undefined;
  if (!call) return { step, reply: { text: spec.finish }, reason };
  return { step, reply: { call: call.tool, args: expandArgs(call.args, vars) as Record<string, unknown> }, reason };
}

/** Strings expanded; a string that is exactly one placeholder takes the value with its type (a number stays a number). */
export function expandArgs(value: unknown, vars: Readonly<Record<string, string | number>>): unknown {
  if (typeof value === 'string') {
    const whole = /^\{([a-z_]+)\}$/.exec(value);
    if (whole && vars[whole[1]!] !== undefined) return vars[whole[1]!];
    return value.replace(/\{([a-z_]+)\}/g, (text, name: string) =>
      vars[name] === undefined ? text : String(vars[name]),
    );
  }
  if (Array.isArray(value)) return value.map((item) => expandArgs(item, vars));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandArgs(item, vars)]));
  return value;
}

/**
 * A shell-quoted `pkill -f` pattern for the repro: its text as a regular expression, with its first letter in brackets
 * so that it does not match the command line of the shell running the pkill (`'[p]ython3 build\.py'`).
 */
export function reproPattern(repro: string): string {
  const escaped = repro.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const bracketed = escaped.replace(/[A-Za-z0-9]/, (first) => `[${first}]`);
  return `'${bracketed.replaceAll("'", `'\\''`)}'`;
}

/**
 * A shell command that ends the repro's processes with SIGTERM and spares every ancestor of the shell running it: a
 * CLI that took the issue as an argument has the repro's text in its own command line, which a plain `pkill -f` of the
 * repro would match (ending the CLI, or being refused by it). Exit status 1 when nothing matched, as pkill's.
 */
export function reproKill(repro: string): string {
  return [
    'hb_up=" "; hb_p=$$',
    'while [ "${hb_p:-0}" -gt 1 ]; do hb_up="$hb_up$hb_p "; hb_p=$(awk \'/^PPid:/ {print $2}\' /proc/$hb_p/status 2>/dev/null); done',
    'hb_n=0',
    `for hb_p in $(pgrep -f ${reproPattern(repro)}); do case $hb_up in *" $hb_p "*) ;; *) kill -TERM "$hb_p" 2>/dev/null && hb_n=$((hb_n+1)) ;; esac; done`,
    'echo "ended $hb_n process(es)"; [ "$hb_n" -gt 0 ]',
  ].join('; ');
}
