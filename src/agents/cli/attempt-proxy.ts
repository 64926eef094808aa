import path from 'node:path';
import { DEFAULTS } from '../../defaults.js';
import type { TraceWriter } from '../../trace/writer.js';
import type { Case } from '../../types/case.js';
import { RUN_FILES } from '../../types/run-files.js';
import type { Adapter } from './adapter.js';
import type { InstalledAgent } from './installed.js';
import { ModelProxy } from './model-proxy.js';

export interface AttemptProxyDeps {
  readonly agent: InstalledAgent;
  readonly adapter: Adapter;
  readonly testCase: Case;
  readonly trace: TraceWriter;
  readonly tokenBudget: number;
  readonly logDir: string;
  readonly socketPath: string;
  readonly onOverBudget: (value: number, limit: number) => void;
  /** each model call as it arrives, with its parsed body (tool results are read from it). */
  readonly onRequest?: (request: number, body: unknown) => void;
  /** each answer as it is recorded: `final` when it called no tool, to a call that offered tools. */
  readonly onResponse?: (request: number, final: boolean) => void;
}

/**
 * The model proxy of an installed-agent attempt, its calls written to the trace (bodies relative to the attempt
 * folder), a body the disk refuses put on the trace's results-fault path (the attempt then ends as a fault), and — with
 * `--model probe` — the probe policy given the case's repro and its wait: a share of the case's interrupt budget as the
 * attempt scaled it.
 */
export function startAttemptProxy(deps: AttemptProxyDeps): Promise<ModelProxy> {
  const { agent, trace, logDir } = deps;
  const spec = agent.upstream === null ? deps.adapter.probe : undefined;
  const probe = spec
    ? { spec, repro: deps.testCase.repro, waitMs: Math.round(interruptMs(deps) * DEFAULTS.probeWaitShare) }
    : undefined;
  if (probe)
    trace.write({
      type: 'agent.note',
      kind: 'agent',
      message: `probe model: runs \`${probe.repro}\` with ${probe.spec.run.tool}, waits ${probe.waitMs} ms on it${probe.spec.poll ? ` (polling with ${probe.spec.poll.tool})` : ''}, then interrupts (${probe.spec.interrupt.kind} through ${probe.spec.interrupt.tool}) and finishes`,
    });
  return ModelProxy.start({
    socketPath: deps.socketPath,
    upstream: agent.upstream,
    apiKey: agent.apiKey,
    tokenBudget: deps.tokenBudget,
    bodyDir: path.join(logDir, RUN_FILES.modelDir),
    ...(probe ? { probe } : {}),
    events: {
      request: ({ body, ...call }) => {
        trace.write({ type: 'model.request', ...call, bodyFile: path.relative(logDir, call.bodyFile) });
        deps.onRequest?.(call.request, body);
      },
      response: (call) => {
        trace.write({
          type: 'model.response',
          ...call,
          latencyMs: Math.round(call.latencyMs * 10) / 10,
          bodyFile: path.relative(logDir, call.bodyFile),
        });
        deps.onResponse?.(call.request, call.final === true);
      },
      overBudget: deps.onOverBudget,
      fault: (error) => trace.fail(error),
    },
  });
}

/** The attempt's interrupt budget as attempt.start recorded it (a variant's override and the time scale applied). */
function interruptMs(deps: AttemptProxyDeps): number {
  const start = deps.trace.events.find((event) => event.type === 'attempt.start');
  return start?.type === 'attempt.start' ? start.budgets.interruptMs : deps.testCase.budgets.interrupt;
}
