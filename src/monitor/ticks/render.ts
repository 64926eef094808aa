import type { Tick } from '../../types/process.js';
import { compileTemplate, type Template } from '../../types/template.js';
import { renderWithin, type TickBudget } from './tick-budget.js';
import { TICK_PLACEHOLDERS, tickValues } from './tick-values.js';

/** The default tick, for agents without a prompt of their own (baseline, exec, replay) and for people reading a trace. */
export const DEFAULT_TICK_TEMPLATE: Template = compileTemplate(
  [
    '[tick {{seq}} · {{elapsed}} · {{since_output}} · {{total_output}} total] {{classification}}: {{reason}}',
    '{{output}}',
    '{{processes}}',
  ].join('\n'),
  'the default tick',
  TICK_PLACEHOLDERS,
);

/** The one tick renderer: every agent's tick text is a template over the same values (see tick-values.ts), within a budget where the prompt sets one. */
export function renderTick(tick: Tick, template: Template = DEFAULT_TICK_TEMPLATE, budget?: TickBudget): string {
  return budget ? renderWithin(tick, template, budget) : template.render(tickValues(tick));
}

export type TickRenderer = (tick: Tick) => string;
