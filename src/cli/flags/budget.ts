import { BUDGET_KEYS, budgetOverrides, type BudgetKey } from '../../run/index.js';
import { parseDuration } from '../../types/duration.js';
import { HangbenchError } from '../../types/errors.js';
import type { BudgetOverrides } from '../../types/variant.js';

/** What each key of `--budget` takes, as the same key of a config file's `budgets:` does. */
const BUDGET_VALUES: Readonly<Record<BudgetKey, { readonly accepts: string; read(text: string): number | null }>> = {
  tokens: { accepts: 'a whole number of tokens ≥ 1', read: (text) => (/^[1-9]\d*$/.test(text) ? Number(text) : null) },
  wall: { accepts: 'a duration > 0 (250ms, 30s, 6m, 1h)', read: positiveDuration },
  interrupt: { accepts: 'a duration > 0 (250ms, 30s, 6m, 1h)', read: positiveDuration },
};

export const BUDGET_EXAMPLE = 'wall=6m,tokens=60000,interrupt=30s';

function positiveDuration(text: string): number | null {
  try {
    const ms = parseDuration(text);
    return ms > 0 ? ms : null;
  } catch {
    return null;
  }
}

function refuse(message: string): never {
  throw new HangbenchError('USAGE', `--budget: ${message}`);
}

/**
 * `wall=6m,tokens=60000,interrupt=30s` (any of the three keys) → every variant's budget overrides, as a config
 * file's top-level `budgets:` gives them: unscaled, each replacing that budget of every case.
 */
export function parseBudget(value: string): BudgetOverrides {
  const given: Partial<Record<BudgetKey, number>> = {};
  for (const item of value.split(',')) {
    const match = /^\s*([^=\s]*)\s*=\s*(.*?)\s*$/.exec(item);
    if (!match || match[1] === '')
      refuse(
        `"${item}" in "${value}" is not KEY=VALUE; write e.g. ${BUDGET_EXAMPLE} (keys: ${BUDGET_KEYS.join(', ')})`,
      );
    const key = match[1]!;
    if (!(BUDGET_KEYS as readonly string[]).includes(key))
      refuse(`unknown key "${key}" in "${value}"; the keys are ${BUDGET_KEYS.join(', ')}`);
    const budget = key as BudgetKey;
    if (given[budget] !== undefined) refuse(`${budget} is given twice in "${value}"`);
    const read = BUDGET_VALUES[budget].read(match[2]!);
    if (read === null) refuse(`${budget}=${match[2]!}: ${budget} takes ${BUDGET_VALUES[budget].accepts}`);
    given[budget] = read;
  }
  return budgetOverrides(given)!;
}
