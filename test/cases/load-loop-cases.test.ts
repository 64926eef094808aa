import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../src/cases/load-cases.js';
import { formatCaseProblem } from '../../src/types/errors.js';

const root = path.resolve(import.meta.dirname, '../fixtures/cases');
const bad = (file: string) => path.join(root, 'bad-loop', file);

async function problemsOf(file: string): Promise<string[]> {
  const loaded = await loadCases([bad(file)], root);
  expect(loaded.cases).toHaveLength(0);
  return loaded.problems.map(formatCaseProblem);
}

describe('gates and hints in a case file', () => {
  it('loads gates with verify defaults plus retries, and hints with their durations in ms', async () => {
    const { cases, problems } = await loadCases([path.join(root, 'good-loop')], root);
    expect(problems).toEqual([]);
    const [testCase] = cases;
    expect(testCase?.gates).toEqual([
      { run: 'python3 app.py', timeout: 5000, exit: 0, stdout: 'fixed', retries: 2 },
      { run: 'true', timeout: 20_000, exit: 0, retries: 0 },
    ]);
    expect(testCase?.hints).toEqual([
      { after: 20_000, text: 'It has been quiet for a while.' },
      { ticks: 3, text: 'Still nothing?' },
      { onset: 500, text: 'What is it waiting for?' },
    ]);
  });

  it('defaults to no gates and no hints', async () => {
    const { cases } = await loadCases([path.join(root, 'good')], root);
    expect(cases[0]).toMatchObject({ gates: [], hints: [] });
  });

  it('names file, line:column and field for bad gate fields', async () => {
    expect(await problemsOf('gate-fields.yaml')).toEqual([
      `${bad('gate-fields.yaml')}:14:5 gates[0].timout: unknown field "timout" — did you mean "timeout"?; remove it or fix its name`,
      `${bad('gate-fields.yaml')}:16:14 gates[1].retries: expected at least 0, found -1`,
      `${bad('gate-fields.yaml')}:17:5 gates[2].run: missing required field (expected string)`,
    ]);
  });

  it('says which trigger is wrong or missing in a hint, one problem per mistake', async () => {
    expect(await problemsOf('hint-triggers.yaml')).toEqual([
      `${bad('hint-triggers.yaml')}:13:5 hints[0]: a hint needs one trigger: after: 20s, ticks: 3 or onset: 5s`,
      `${bad('hint-triggers.yaml')}:14:5 hints[1]: a hint has exactly one trigger, found after and ticks; split it into one hint per trigger`,
      `${bad('hint-triggers.yaml')}:17:12 hints[2].onset: "soon" is not a duration: write 250ms, 30s, 5m, 1h or a number of seconds, found "soon"`,
      `${bad('hint-triggers.yaml')}:19:5 hints[3].text: missing required field (expected string)`,
      `${bad('hint-triggers.yaml')}:20:5 hints[3].txt: unknown field "txt" — did you mean "text"?; remove it or fix its name`,
      `${bad('hint-triggers.yaml')}:21:12 hints[4].ticks: expected at least 1, found 0`,
      `${bad('hint-triggers.yaml')}:23:5 hints[5]: expected a mapping with one trigger and a text, such as {after: 20s, text: "…"}`,
    ]);
  });

  it('refuses an onset hint on a control, which has no onset', async () => {
    expect(await problemsOf('control-onset-hint.yaml')).toEqual([
      `${bad('control-onset-hint.yaml')}:12:5 hints[0]: an onset trigger needs kind: hang (a control has no onset); use after: 20s or ticks: 3`,
    ]);
  });
});
