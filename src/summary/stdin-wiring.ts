import { z } from 'zod';
import { CaseKindSchema } from '../types/case.js';
import { StdinWiringSchema, STDIN_WIRINGS, type StdinWiring } from '../types/terminal.js';
import type { AttemptScores } from '../types/scores.js';
import { VariantSpecSchema } from '../types/variant.js';

const WiringCellSchema = z.strictObject({
  stdin: StdinWiringSchema,
  attempts: z.number().int().nonnegative(),
  /** hang cases: the onset showed in a command the agent ran (the prompt was printed, say). */
  reproduced: z.number().int().nonnegative(),
  /** hang cases: the agent killed that command after the onset; a wiring where the program exits on its own leaves nothing to kill. */
  interrupted: z.number().int().nonnegative(),
  /** hang cases: attempts whose hidden checks passed at the end (a prompt that took its default is not fixed). */
  fixed: z.number().int().nonnegative(),
  solved: z.number().int().nonnegative(),
});

/** One case under each `--stdin` wiring the run tried. */
export const StdinWiringRowSchema = z.strictObject({
  caseId: z.string(),
  kind: CaseKindSchema,
  cells: z.array(WiringCellSchema),
});
export type StdinWiringRow = z.infer<typeof StdinWiringRowSchema>;

/**
 * Per case, per stdin wiring of the run's variants (`--stdin pipe,null,tty`): how often the hang showed, was
 * killed, was fixed, and the attempt solved. Empty unless the run tried at least two wirings; variants without `--stdin` are left out.
 */
export function summarizeStdinWiring(
  options: Readonly<Record<string, unknown>>,
  attempts: readonly AttemptScores[],
): StdinWiringRow[] {
  const parsed = z.array(VariantSpecSchema).safeParse(options.variants);
  if (!parsed.success) return [];
  const wiringOf = new Map<string, StdinWiring>();
  for (const variant of parsed.data) if (variant.stdin !== undefined) wiringOf.set(variant.name, variant.stdin);
  if (new Set(wiringOf.values()).size < 2) return [];
  const rows = new Map<
    string,
    { kind: AttemptScores['kind']; cells: Map<StdinWiring, z.infer<typeof WiringCellSchema>> }
  >();
  for (const attempt of attempts) {
    const stdin = wiringOf.get(attempt.variant);
    if (stdin === undefined) continue;
    const row = rows.get(attempt.caseId) ?? { kind: attempt.kind, cells: new Map() };
    const cell = row.cells.get(stdin) ?? { stdin, attempts: 0, reproduced: 0, interrupted: 0, fixed: 0, solved: 0 };
    row.cells.set(stdin, {
      stdin,
      attempts: cell.attempts + 1,
      reproduced: cell.reproduced + (attempt.scores.reproduced === true ? 1 : 0),
      interrupted: cell.interrupted + (attempt.scores.interrupted === true ? 1 : 0),
      fixed: cell.fixed + (attempt.scores.fixed === true ? 1 : 0),
      solved: cell.solved + (attempt.scores.solved ? 1 : 0),
    });
    rows.set(attempt.caseId, row);
  }
  return [...rows.entries()]
    .map(([caseId, row]) => ({
      caseId,
      kind: row.kind,
      cells: STDIN_WIRINGS.flatMap((stdin) => row.cells.get(stdin) ?? []),
    }))
    .sort((a, b) => (a.kind !== b.kind ? (a.kind === 'hang' ? -1 : 1) : a.caseId < b.caseId ? -1 : 1));
}
