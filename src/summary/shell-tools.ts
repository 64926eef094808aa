import { percentile } from '../stats/index.js';
import { AGENT_EXITS, TOOL_ENDS, type AttemptScores } from '../types/scores.js';
import { groupBy } from './group-by.js';
import type { ShellToolRow } from './schema.js';

/** A tool result kept in summary.json for the report to show, per row: the first attempt's, up to this many characters. */
const EXAMPLE_CHARS = 4000;

const sum = (values: readonly (number | null)[]): number | null => {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((total, value) => total + value, 0);
};

const largest = (values: readonly (number | null)[]): number | null => {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : Math.max(...known);
};

/** How often each value occurs, in the order of `names`; values never seen are left out. */
function counts<Name extends string>(
  names: readonly Name[],
  values: readonly (Name | null)[],
): Partial<Record<Name, number>> {
  const found: Partial<Record<Name, number>> = {};
  for (const name of names) {
    const n = values.filter((value) => value === name).length;
    if (n > 0) found[name] = n;
  }
  return found;
}

/** The variant without its monitor mode: the same CLI and settings, so `none` and `inband` sit side by side. */
export function cliOf(variant: string, mode: string | undefined): string {
  if (mode === undefined) return variant;
  const parts = variant.split('·').filter((part) => part !== mode);
  return parts.length === 0 ? variant : parts.join('·');
}

/**
 * The shell-tool matrix: one row per variant × hang class, over the hang attempts that had an onset or ran the repro
 * through a CLI's tool — what the tool did with the repro (how it ended, when it came back, what it left running) and
 * the hang tax, summed. Rows of the same CLI in another mode follow each other. [] when no attempt has any of it.
 */
export function summarizeShellTools(attempts: readonly AttemptScores[]): ShellToolRow[] {
  const relevant = attempts.filter(
    (attempt) => attempt.kind === 'hang' && (attempt.scores.hang_tax_ms !== null || attempt.scores.tool_end !== null),
  );
  const rows = groupBy(relevant, (attempt) => JSON.stringify([attempt.variant, attempt.class])).map(
    (group): ShellToolRow => {
      const [first] = group as [AttemptScores];
      const returns = group.flatMap((attempt) => attempt.scores.tool_return_ms ?? []);
      const results = group.flatMap((attempt) => attempt.scores.tool_result ?? []);
      const ends = counts(
        TOOL_ENDS,
        group.map((attempt) => attempt.scores.tool_end),
      );
      return {
        cli: cliOf(first.variant, first.mode),
        variant: first.variant,
        agent: first.agent,
        mode: first.mode ?? null,
        class: first.class,
        attempts: group.length,
        installed: group.some((attempt) => attempt.scores.tool_end !== null),
        returned: returns.length,
        toolReturnMs: { p50: percentile(returns, 50), max: returns.length === 0 ? null : Math.max(...returns) },
        ends,
        leftAfterTool: sum(group.map((attempt) => attempt.scores.left_after_tool)),
        leftAfterExit: sum(group.map((attempt) => attempt.scores.left_after_exit)),
        heldOutput: results.filter((result) => result.held_output === true).length,
        statedElapsed: results.filter((result) => result.elapsed_ms !== null).length,
        reasons: [...new Set(results.flatMap((result) => result.reason ?? []))],
        hangTaxMs: sum(group.map((attempt) => attempt.scores.hang_tax_ms)),
        hangTaxTokens: sum(group.map((attempt) => attempt.scores.hang_tax_tokens)),
        example: results[0] ? results[0].text.slice(0, EXAMPLE_CHARS) : null,
        toolTimeoutMs: largest(group.map((attempt) => attempt.scores.tool_timeout_ms)),
        agentExit: counts(
          AGENT_EXITS,
          group.map((attempt) => attempt.scores.agent_exit),
        ),
        agentExitMsMax: largest(
          group.map((attempt) => (attempt.scores.agent_exit === 'ended' ? attempt.scores.agent_exit_ms : null)),
        ),
      };
    },
  );
  return rows.sort((a, b) =>
    a.cli === b.cli
      ? a.class === b.class
        ? (a.mode ?? '').localeCompare(b.mode ?? '')
        : a.class.localeCompare(b.class)
      : a.cli.localeCompare(b.cli),
  );
}
