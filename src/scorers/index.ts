import type { TraceEvent } from '../types/events.js';
import type { AttemptScores } from '../types/scores.js';
import { agentBoot } from './agent-boot.js';
import { agentExit } from './agent-exit.js';
import { classificationAtEnd } from './classification-at-end.js';
import { clean } from './clean.js';
import { completed } from './completed.js';
import { diagnosed } from './diagnosed.js';
import { falseKill } from './false-kill.js';
import { fixed, intact } from './fixed.js';
import { gates } from './gates.js';
import { hangTax } from './hang-tax.js';
import { shellTool } from './shell-tool.js';
import { hints } from './hints.js';
import { interrupted } from './interrupted.js';
import { reproduced } from './reproduced.js';
import { solved } from './solved.js';
import { traceTokens } from './tokens.js';
import { attemptEnd, attemptStart, ofType } from './trace-query.js';
import { withinBudget } from './within-budget.js';

export {
  agentBoot,
  agentExit,
  classificationAtEnd,
  clean,
  completed,
  diagnosed,
  falseKill,
  fixed,
  gates,
  hangTax,
  hints,
  intact,
  interrupted,
  reproduced,
  shellTool,
  solved,
  withinBudget,
};
export type { HangTaxScore } from './hang-tax.js';
export type { ShellToolScore } from './shell-tool.js';
export type { AgentExitScore } from './agent-exit.js';
export type { InterruptScore } from './interrupted.js';
export type { GateScore } from './gates.js';
export type { HintScore } from './hints.js';
export { parseTrace, readTrace } from '../trace/read.js';

/**
 * Every score of one attempt, from its trace alone.
 * A trace without attempt.end (the harness died mid-attempt) scores as an `error` outcome.
 */
export function scoreAttempt(events: readonly TraceEvent[]): AttemptScores {
  const start = attemptStart(events);
  const end = attemptEnd(events);
  const outcome = end?.outcome ?? 'error';
  const parts = {
    reproduced: reproduced(events),
    ...interrupted(events),
    fixed: fixed(events),
    intact: intact(events),
    false_kill: falseKill(events),
    completed: completed(events),
    within_budget: withinBudget(events),
    clean: clean(events),
  };
  return {
    caseId: start.caseId,
    kind: start.kind,
    class: start.class,
    variant: start.variant,
    agent: start.agent,
    repeat: start.repeat,
    outcome,
    scores: {
      ...parts,
      solved: solved(start.kind, outcome, parts),
      diagnosed: diagnosed(events),
      ...gates(events),
      ...hints(events),
      ...hangTax(events),
      ...shellTool(events),
      ...agentExit(events),
      ...agentBoot(events),
    },
    mode: start.monitor.mode,
    ticks: ofType(events, 'tick').length,
    tokens: traceTokens(events),
    wallMs: end?.wallMs ?? events.at(-1)?.t ?? 0,
    ...(end?.cpuMs === undefined
      ? {}
      : { cpuMs: end.cpuMs + ofType(events, 'verify').reduce((sum, step) => sum + (step.cpuMs ?? 0), 0) }),
    classificationAtEnd: classificationAtEnd(events),
  };
}
export { killLeftSurvivors } from './clean.js';
export { missedScores } from './missed.js';
