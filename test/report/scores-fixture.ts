import type { AttemptScores } from '../../src/types/scores.js';

/** One attempt's scores as the scorers produce them, for renderers and compare; `solved` decides the rest unless given. */
export function attemptScores(
  overrides: Partial<Omit<AttemptScores, 'scores'>> & { readonly scores?: Partial<AttemptScores['scores']> } = {},
): AttemptScores {
  const kind = overrides.kind ?? 'hang';
  const solved = overrides.scores?.solved ?? true;
  return {
    caseId: 'py-pipe-deadlock',
    class: kind === 'hang' ? 'pipe-write-block' : 'slow-progress',
    variant: 'baseline-10s',
    agent: 'baseline',
    repeat: 1,
    outcome: 'completed',
    ticks: 3,
    tokens: 0,
    wallMs: 4000,
    classificationAtEnd: null,
    ...overrides,
    kind,
    scores: {
      reproduced: kind === 'hang' ? solved : null,
      interrupted: kind === 'hang' ? solved : null,
      interrupt_latency: kind === 'hang' && solved ? 1200 : null,
      fixed: kind === 'hang' ? solved : null,
      intact: kind === 'control' ? true : null,
      false_kill: kind === 'control' ? !solved : null,
      completed: kind === 'control' ? solved : null,
      within_budget: true,
      clean: true,
      solved,
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
      ...overrides.scores,
    },
  };
}
