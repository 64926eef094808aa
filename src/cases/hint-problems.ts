import type { Document } from 'yaml';
import { isMap, isScalar } from 'yaml';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type PathKey = string | number;

/** Trigger keys in the order of the union's options (src/types/case.ts HangHintSchema, ControlHintSchema). */
const TRIGGERS = { hang: ['after', 'ticks', 'onset'], control: ['after', 'ticks'] } as const;

/** A hint union error either narrows to the issues of the one trigger the hint names, or to one sentence. */
export type HintDiagnosis = { readonly issues: readonly Issue[] } | { readonly message: string };

export function isHintPath(path: readonly PathKey[]): boolean {
  return path.length === 2 && path[0] === 'hints' && typeof path[1] === 'number';
}

/**
 * zod reports a hint that fits no trigger as one union error with every option's issues; the trigger key the
 * author wrote says which option was meant, so only that option's issues (re-rooted at the hint) are worth showing.
 */
export function diagnoseHint(doc: Document, issue: Extract<Issue, { code: 'invalid_union' }>, path: readonly PathKey[]): HintDiagnosis {
  const kind = doc.get('kind') === 'control' ? 'control' : 'hang';
  const allowed: readonly string[] = TRIGGERS[kind];
  const node = doc.getIn(path, true);
  if (!isMap(node)) return { message: 'expected a mapping with one trigger and a text, such as {after: 20s, text: "…"}' };
  const keys = node.items.flatMap((pair) => (isScalar(pair.key) ? [String(pair.key.value)] : []));
  const written = TRIGGERS.hang.filter((trigger) => keys.includes(trigger));
  const choices = kind === 'hang' ? 'after: 20s, ticks: 3 or onset: 5s' : 'after: 20s or ticks: 3';
  if (written.length === 0) return { message: `a hint needs one trigger: ${choices}` };
  if (written.length > 1) return { message: `a hint has exactly one trigger, found ${written.join(' and ')}; split it into one hint per trigger` };
  const [trigger] = written as [string];
  const option = allowed.indexOf(trigger);
  if (option === -1) return { message: `an onset trigger needs kind: hang (a control has no onset); use ${choices}` };
  const branch = issue.errors[option] ?? [];
  return { issues: branch.map((sub) => ({ ...sub, path: [...path, ...sub.path] }) as Issue) };
}
