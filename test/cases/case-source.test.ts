import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLED_CASES_DIR } from '../../src/cases/case-source.js';
import { loadCases } from '../../src/cases/load-cases.js';

const root = path.resolve(import.meta.dirname, '../..');
const scratch = await mkdtemp(path.join(tmpdir(), 'hangbench-case-source-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('where the cases of a run come from', () => {
  it('without paths or cases/ here: the library bundled with the package, found from the package, not the working folder', async () => {
    const empty = await mkdtemp(path.join(scratch, 'empty-'));
    const loaded = await loadCases([], empty);
    expect(BUNDLED_CASES_DIR).toBe(path.join(root, 'cases'));
    expect(loaded.origin).toBe('bundled');
    expect(loaded.problems).toEqual([]);
    expect(loaded.cases).toHaveLength((await readdir(BUNDLED_CASES_DIR)).filter((file) => file.endsWith('.yaml')).length);
  });

  it("the project's cases/ takes precedence over the bundled library, and paths given over both", async () => {
    const project = await mkdtemp(path.join(scratch, 'project-'));
    await mkdir(path.join(project, 'cases'));
    const own = await loadCases([], project);
    expect(own.origin).toBe('project');
    expect(own.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/no case files/)]);
    const given = await loadCases([path.join(root, 'cases/node-busy-loop.yaml')], project);
    expect([given.origin, given.cases.map((testCase) => testCase.id)]).toEqual(['given', ['node-busy-loop']]);
  });
});
