import type { AttemptScores } from '../../src/types/scores.js';

type Scores = AttemptScores['scores'];

const HANG_SOLVED: Scores = {
  reproduced: true,
  interrupted: true,
  interrupt_latency: 2000,
  fixed: true,
  intact: null,
  false_kill: null,
  completed: null,
  within_budget: true,
  clean: true,
  solved: true,
  gates_passed: null,
  gate_rounds: null,
  hint_given: null,
  hint_to_action: null,
  diagnosed: null,
  hang_tax_ms: null,
  hang_tax_tokens: null,
  tool_return_ms: null,
  tool_end: null,
  left_after_tool: null,
  left_after_exit: null,
  tool_result: null,
  tool_timeout_ms: null,
  agent_exit: null,
  agent_exit_ms: null,
  agent_boot_ms: null,
  agent_boot_cpu_ms: null,
};

const CONTROL_SOLVED: Scores = {
  reproduced: null,
  interrupted: null,
  interrupt_latency: null,
  fixed: null,
  intact: true,
  false_kill: false,
  completed: true,
  within_budget: true,
  clean: true,
  solved: true,
  gates_passed: null,
  gate_rounds: null,
  hint_given: null,
  hint_to_action: null,
  diagnosed: null,
  hang_tax_ms: null,
  hang_tax_tokens: null,
  tool_return_ms: null,
  tool_end: null,
  left_after_tool: null,
  left_after_exit: null,
  tool_result: null,
  tool_timeout_ms: null,
  agent_exit: null,
  agent_exit_ms: null,
  agent_boot_ms: null,
  agent_boot_cpu_ms: null,
};

export function hangAttempt(
  fields: Partial<Omit<AttemptScores, 'scores'>> = {},
  scores: Partial<Scores> = {},
): AttemptScores {
  return {
    caseId: 'py-pipe-deadlock',
    kind: 'hang',
    class: 'pipe-write-block',
    variant: 'interval-10s',
    agent: 'baseline',
    repeat: 1,
    outcome: 'completed',
    ticks: 3,
    tokens: 1200,
    wallMs: 12_300,
    classificationAtEnd: 'blocked-on-pipe',
    ...fields,
    scores: { ...HANG_SOLVED, ...scores },
  };
}

export function controlAttempt(
  fields: Partial<Omit<AttemptScores, 'scores'>> = {},
  scores: Partial<Scores> = {},
): AttemptScores {
  return {
    caseId: 'quiet-compute',
    kind: 'control',
    class: 'quiet-compute',
    variant: 'interval-10s',
    agent: 'baseline',
    repeat: 1,
    outcome: 'completed',
    ticks: 5,
    tokens: 800,
    wallMs: 20_000,
    classificationAtEnd: null,
    ...fields,
    scores: { ...CONTROL_SOLVED, ...scores },
  };
}

export const META = { runId: 'run-1', startedAt: '2026-01-01T00:00:00.000Z', options: { timeScale: 0.1, repeats: 2 } };
