import path from 'node:path';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadCaseFile, loadCases } from '../../src/cases/load-cases.js';
import { validateCases } from '../../src/cases/validate.js';
import { formatCaseProblem } from '../../src/types/errors.js';

const root = path.resolve(import.meta.dirname, '../fixtures/cases');

async function problemsOf(file: string) {
  const loaded = await loadCases([path.join(root, 'bad', file)], root);
  expect(loaded.cases).toHaveLength(0);
  return loaded.problems.map(formatCaseProblem);
}

describe('loadCases', () => {
  it('loads a valid case with defaults, the id from the file name and durations in ms', async () => {
    const { cases, problems } = await loadCases([path.join(root, 'good')], root);
    expect(problems).toEqual([]);
    expect(cases).toHaveLength(1);
    const [testCase] = cases;
    expect(testCase).toMatchObject({ id: 'good-case', kind: 'hang', terminal: 'pipe', budgets: { tokens: 60_000, wall: 60_000, interrupt: 20_000 } });
    expect(testCase?.fixtureDir).toBe(path.join(root, 'fx'));
    expect(testCase?.verify[0]).toMatchObject({ timeout: 20_000, exit: 0, stdout: 'fixed' });
  });

  it('names file, line:column and field for an unknown key, and suggests the known one', async () => {
    const [message] = await problemsOf('unknown-key.yaml');
    expect(message).toBe(`${path.join(root, 'bad/unknown-key.yaml')}:11:3 budgets.wal: unknown field "wal" — did you mean "wall"?; remove it or fix its name`);
  });

  it('says what was found and what is expected for wrong types', async () => {
    const messages = await problemsOf('wrong-types.yaml');
    expect(messages).toEqual([
      `${path.join(root, 'bad/wrong-types.yaml')}:11:14 verify[0].timeout: "soon" is not a duration: write 250ms, 30s, 5m, 1h or a number of seconds, found "soon"`,
      `${path.join(root, 'bad/wrong-types.yaml')}:12:11 verify[0].exit: expected number, found "zero"`,
    ]);
  });

  it('explains a bad discriminator', async () => {
    const [message] = await problemsOf('bad-kind.yaml');
    expect(message).toContain('bad-kind.yaml:3:7 kind: expected kind to be one of "hang", "control", found "hung"');
  });

  it('reports a missing required field at the mapping', async () => {
    const [message] = await problemsOf('missing-field.yaml');
    expect(message).toMatch(/missing-field\.yaml:1:1 title: missing required field \(expected string\)/);
  });

  it('reports YAML syntax errors with their position', async () => {
    const [message] = await problemsOf('syntax.yaml');
    expect(message).toMatch(/syntax\.yaml:\d+:\d+ YAML syntax error: /);
  });

  it('reports a missing fixture folder on the fixture field', async () => {
    const [message] = await problemsOf('missing-fixture.yaml');
    expect(message).toMatch(/missing-fixture\.yaml:4:10 fixture: fixture folder .*nowhere does not exist/);
  });

  it('keeps loading the other cases when some are broken', async () => {
    const { cases, problems } = await loadCases([path.join(root, 'bad'), path.join(root, 'good')], root);
    expect(cases.map((testCase) => testCase.id)).toEqual(['good-case']);
    expect(new Set(problems.map((problem) => path.basename(problem.file))).size).toBe(6);
  });

  it('rejects a case id used twice, naming the first file', async () => {
    const { cases, problems } = await loadCases([path.join(root, 'dup')], root);
    expect(cases).toHaveLength(1);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toContain('already used by');
  });

  it('expands globs and reports paths that match nothing', async () => {
    const globbed = await loadCases(['good/*.yaml', 'nothing-here/*.yaml'], root);
    expect(globbed.cases).toHaveLength(1);
    expect(globbed.problems.map((problem) => problem.file)).toEqual(['nothing-here/*.yaml']);
  });

  it('says so when a folder has no case files', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'hangbench-empty-'));
    const { problems } = await loadCases([empty], root);
    expect(problems[0]?.message).toMatch(/no case files/);
  });

  it('reports a file it cannot read instead of crashing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-unreadable-'));
    await mkdir(path.join(dir, 'case.yaml'));
    const result = await loadCaseFile(path.join(dir, 'case.yaml'));
    expect(result).toEqual({ problems: [expect.objectContaining({ field: '', message: expect.stringMatching(/cannot read the file \(EISDIR\)/) })] });
  });
});

describe('validateCases', () => {
  it('applies solution.patch and checks hidden/', async () => {
    const report = await validateCases([path.join(root, 'good')], root);
    expect(report.problems).toEqual([]);
    expect(report.valid.map((testCase) => testCase.id)).toEqual(['good-case']);
  });
});
