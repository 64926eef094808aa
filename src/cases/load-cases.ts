import { access, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { CaseFileSchema, type Case } from '../types/case.js';
import type { CaseProblem } from '../types/errors.js';
import { problemsFromIssues } from './case-problems.js';
import { findCaseFiles } from './find-case-files.js';

export interface LoadedCases {
  readonly cases: readonly Case[];
  /** one entry per problem; a case with any problem is left out, the others load. */
  readonly problems: readonly CaseProblem[];
  readonly files: readonly string[];
}

const DEFAULT_CASE_PATHS = ['cases'];

export async function loadCases(inputs: readonly string[], cwd: string): Promise<LoadedCases> {
  const { files, missing } = await findCaseFiles(inputs.length > 0 ? inputs : DEFAULT_CASE_PATHS, cwd);
  const problems: CaseProblem[] = missing.map((input) => ({
    file: input,
    field: '',
    message: 'no such file or folder, and no case file matches it; pass a case file, a folder of *.yaml files or a glob',
  }));
  if (files.length === 0 && missing.length === 0) {
    problems.push({ file: inputs.join(' ') || 'cases', field: '', message: 'no case files (*.yaml) found here; add one or pass another path' });
  }
  const loaded = await Promise.all(files.map((file) => loadCaseFile(file)));
  const cases: Case[] = [];
  const seen = new Map<string, string>();
  for (const result of loaded) {
    if ('problems' in result) {
      problems.push(...result.problems);
      continue;
    }
    const first = seen.get(result.id);
    if (first !== undefined) {
      problems.push({ file: result.file, field: 'id', message: `case id "${result.id}" is already used by ${first}; give each case a unique id` });
      continue;
    }
    seen.set(result.id, result.file);
    cases.push(result);
  }
  return { cases, problems, files };
}

/** A case file is a few KB of YAML; anything far bigger is not one, and reading it whole would cost memory. */
const MAX_CASE_FILE_BYTES = 1024 * 1024;

export async function loadCaseFile(file: string): Promise<Case | { problems: CaseProblem[] }> {
  const unreadable = (why: string, fix = 'check it exists and is readable') => ({ problems: [{ file, field: '', message: `cannot read the file (${why}); ${fix}` }] });
  const info = await stat(file).catch((error: unknown) => error as NodeJS.ErrnoException);
  if (info instanceof Error) return unreadable(info.code ?? String(info));
  if (info.isDirectory()) return unreadable('EISDIR');
  // Reading a FIFO would wait for a writer forever.
  if (!info.isFile()) return unreadable('not a regular file', 'a case file must be a regular file, not a FIFO, socket or device');
  if (info.size > MAX_CASE_FILE_BYTES) {
    return { problems: [{ file, field: '', message: `the file is ${(info.size / 1024 ** 2).toFixed(1)} MiB; a case file is a few KB of YAML — pass the case files, not other data` }] };
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return unreadable((error as NodeJS.ErrnoException).code ?? String(error));
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((error) => {
        const position = lines.linePos(error.pos[0]);
        return { file, line: position.line, column: position.col, field: '', message: `YAML syntax error: ${error.message.split('\n')[0]}` };
      }),
    };
  }
  const raw: unknown = doc.toJS();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { problems: [{ file, line: 1, column: 1, field: '', message: 'a case file must be a mapping of fields (id, title, kind, …)' }] };
  }
  const parsed = CaseFileSchema.safeParse(raw);
  if (!parsed.success) return { problems: problemsFromIssues(file, doc, lines, parsed.error.issues) };

  const id = parsed.data.id ?? path.basename(file).replace(/\.ya?ml$/, '');
  const fixtureDir = path.resolve(path.dirname(file), parsed.data.fixture);
  const fixtureProblem = await checkFixtureLayout(fixtureDir);
  if (fixtureProblem !== null) {
    const node = doc.getIn(['fixture'], true) as { range?: [number, number, number] } | undefined;
    const position = node?.range ? lines.linePos(node.range[0]) : undefined;
    return { problems: [{ file, line: position?.line, column: position?.col, field: 'fixture', message: fixtureProblem }] };
  }
  return { ...parsed.data, id, file, fixtureDir };
}

async function checkFixtureLayout(fixtureDir: string): Promise<string | null> {
  const exists = (target: string) => access(target).then(() => true, () => false);
  if (!(await exists(fixtureDir))) return `fixture folder ${fixtureDir} does not exist; the path is relative to the case file`;
  if (!(await exists(path.join(fixtureDir, 'workspace')))) return `fixture ${fixtureDir} has no workspace/ folder (the files the agent sees)`;
  return null;
}
