import type { Document, LineCounter, Node as YamlNode } from 'yaml';
import { isMap, isNode, isPair, isScalar } from 'yaml';
import type { z } from 'zod';
import type { CaseProblem } from '../types/errors.js';
import { diagnoseHint, isHintPath } from './hint-problems.js';

type Issue = z.core.$ZodIssue;
type PathKey = string | number;

/** Turns zod issues into problems that name file, line:column, field, what was found and what is expected. */
export function problemsFromIssues(file: string, doc: Document, lines: LineCounter, issues: readonly Issue[], knownKeys: KnownKeys = CASE_KEYS): CaseProblem[] {
  return issues.flatMap((issue) => problemFromIssue(file, doc, lines, issue, knownKeys));
}

/** The fields a mapping may have, keyed by the name of the field that holds it ('' for the top level): for "did you mean". */
export type KnownKeys = Readonly<Record<string, readonly string[]>>;

function problemFromIssue(file: string, doc: Document, lines: LineCounter, issue: Issue, knownKeys: KnownKeys): CaseProblem | CaseProblem[] {
  const path = issue.path.filter((key): key is PathKey => typeof key !== 'symbol');
  if (issue.code === 'invalid_union' && isHintPath(path)) {
    const diagnosis = diagnoseHint(doc, issue, path);
    if ('issues' in diagnosis) return problemsFromIssues(file, doc, lines, diagnosis.issues, knownKeys);
    return located(file, lines, nodeAt(doc, path), path, diagnosis.message);
  }
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const keyNode = findKeyNode(doc, path, key);
    const known = knownKeysAt(knownKeys, path, issue.keys);
    const hint = closest(key, known);
    return located(file, lines, keyNode ?? nodeAt(doc, path), [...path, key], `unknown field "${key}"${hint ? ` — did you mean "${hint}"?` : ''}; remove it or fix its name`);
  }
  const exact = nodeAt(doc, path, true);
  // A check that words its whole message (params.complete) says what is wrong and what to do; nothing is appended.
  if (issue.code === 'custom' && (issue.params as { complete?: boolean } | undefined)?.complete && exact !== undefined) {
    return located(file, lines, exact, path, issue.message);
  }
  const message = exact === undefined || (isScalar(exact) && exact.value === null)
    ? `missing required field (expected ${expected(issue).replace(/^expected /, '')})`
    : `${expected(issue)}, found ${isNode(exact) ? describe(exact) : 'nothing'}`;
  const node = exact ?? nodeAt(doc, path);
  return located(file, lines, node, path, message);
}

function expected(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union':
      if ('discriminator' in issue && issue.discriminator) return `expected ${issue.discriminator} to be one of ${(issue as { options?: unknown[] }).options?.map((o) => JSON.stringify(o)).join(', ') ?? 'a known value'}`;
      return issue.path.at(-1) === 'onset' && issue.path[0] === 'hang'
        ? 'expected one of {output: "text"}, {start: true}, {after: 2s}'
        : durationLike(issue.path) ? 'expected a duration such as 250ms, 30s, 5m or a number of seconds' : 'expected a value of another shape';
    case 'too_small':
      return issue.origin === 'array' ? `expected at least ${String(issue.minimum)} item(s)` : issue.origin === 'string' ? 'expected a non-empty text' : `expected at least ${String(issue.minimum)}`;
    case 'too_big':
      return `expected at most ${String(issue.maximum)}`;
    case 'invalid_format':
      return issue.message;
    default:
      return issue.message;
  }
}

function durationLike(path: readonly PropertyKey[]): boolean {
  const last = path.at(-1);
  return last === 'wall' || last === 'interrupt' || last === 'timeout' || last === 'after' || (last === 'onset' && path[0] === 'hints');
}

function describe(node: YamlNode): string {
  if (isScalar(node)) return JSON.stringify(node.value);
  if (isMap(node)) return 'a mapping';
  return 'a list';
}

function located(file: string, lines: LineCounter, node: unknown, path: readonly PathKey[], message: string): CaseProblem {
  const range = isNode(node) || isPair(node) ? (isPair(node) ? (node.key as YamlNode | null)?.range : node.range) : undefined;
  const position = range ? lines.linePos(range[0]) : undefined;
  return { file, line: position?.line, column: position?.col, field: formatPath(path), message };
}

/** The node at path, or the nearest ancestor that exists (unless exact). */
function nodeAt(doc: Document, path: readonly PathKey[], exact = false): unknown {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (node !== undefined) return node;
    if (exact) return undefined;
  }
  return undefined;
}

function findKeyNode(doc: Document, path: readonly PathKey[], key: string): unknown {
  const parent = path.length === 0 ? doc.contents : doc.getIn(path, true);
  if (!isMap(parent)) return undefined;
  return parent.items.find((pair) => isScalar(pair.key) && pair.key.value === key);
}

const CASE_KEYS: KnownKeys = {
  '': ['id', 'title', 'kind', 'fixture', 'issue', 'repro', 'hang', 'control', 'terminal', 'budgets', 'verify', 'gates', 'hints', 'tags'],
  hang: ['class', 'onset'],
  control: ['class'],
  budgets: ['tokens', 'wall', 'interrupt'],
  verify: ['run', 'timeout', 'exit', 'stdout', 'stderr'],
  gates: ['run', 'timeout', 'exit', 'stdout', 'stderr', 'retries'],
  hints: ['after', 'ticks', 'onset', 'text'],
  onset: ['output', 'start', 'after'],
};

function knownKeysAt(fields: KnownKeys, path: readonly PathKey[], unknown: readonly string[]): string[] {
  const last = path.filter((key) => typeof key === 'string').at(-1) ?? '';
  return (fields[String(last)] ?? []).filter((key) => !unknown.includes(key));
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const key of candidates) {
    const distance = editDistance(word.toLowerCase(), key);
    if (distance <= 2 && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function formatPath(path: readonly PathKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? key : `${text}.${key}`), '');
}
