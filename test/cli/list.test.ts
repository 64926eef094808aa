import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalCommand } from '../../src/cli/eval.js';
import { listCommand } from '../../src/cli/list.js';
import { HangbenchError } from '../../src/types/errors.js';
import type { VariantSpec } from '../../src/types/variant.js';
import { collector } from '../support/collector.js';
import { root } from './run-helpers.js';

const TEMPLATE = path.join(root, 'templates/init');

async function run(args: readonly string[], cwd = root, command = listCommand) {
  const stdout = collector();
  const code = await command(args, {
    stdout,
    stderr: collector(),
    env: {},
    cwd,
    shutdown: new AbortController().signal,
  });
  return { code, stdout: stdout.text };
}

describe('hangbench list', () => {
  it('takes every variant flag of eval: --hints on,off is two variants of the one agent', async () => {
    const { code, stdout } = await run([
      path.join(root, 'cases/node-busy-loop.yaml'),
      '--agent',
      'oracle',
      '--hints',
      'on,off',
      '--json',
    ]);
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as { variants: VariantSpec[]; attempts: number };
    expect(listed.variants.map((variant) => [variant.agent.agent, variant.hints ?? true])).toEqual([
      ['oracle', true],
      ['oracle', false],
    ]);
    expect(listed.attempts).toBe(2);
  });

  it('refuses variant flags beside --config, naming each one, in the words of eval', async () => {
    const args = ['--config', 'hangbench.config.yaml', '--hints', 'off', '--mode', 'interval'];
    const line = '--config hangbench.config.yaml defines the variants; leave out --mode, --hints or drop --config';
    await expect(run(args, TEMPLATE)).rejects.toThrow(HangbenchError);
    await expect(run(args, TEMPLATE)).rejects.toThrow(line);
    await expect(run(args, TEMPLATE, evalCommand)).rejects.toThrow(line);
  });

  it('lists a config file’s variants and cases, and says where the variants came from', async () => {
    const { code, stdout } = await run(['--config', 'hangbench.config.yaml'], TEMPLATE);
    expect(code).toBe(0);
    expect(stdout).toContain('(from hangbench.config.yaml)');
    expect(stdout).toContain('1 case(s) × 2 variant(s) × 1 repeat(s) = 2 attempt(s)');
  });
});

describe('hangbench list sources', () => {
  it('shows each case’s public report, a GitHub issue as owner/repo#N, in the table and the JSON', async () => {
    const file = path.join(root, 'cases/node-watch-mode.yaml');
    const table = await run([file, '--agent', 'oracle']);
    expect(table.stdout).toMatch(/node-watch-mode.*openai\/codex#3775/);
    const listed = JSON.parse((await run([file, '--agent', 'oracle', '--json'])).stdout) as {
      cases: { source: string[] }[];
    };
    expect(listed.cases[0]?.source).toContain('https://github.com/openai/codex/issues/3775');
  });
});
