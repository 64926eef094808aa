import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/defaults.js';
import { main } from '../../src/cli/main.js';
import { EVAL_FLAGS } from '../../src/cli/flags/eval-flags.js';
import { helpOf, RESUME_RULES, type Flag } from '../../src/cli/flags/flag.js';
import { COMMAND_FLAGS } from '../../src/cli/flags/index.js';
import { flagsWhere } from '../../src/cli/flags/resume-check.js';
import { RESUMABLE_OPTIONS } from '../../src/run/resume.js';
import { collector } from '../support/collector.js';
import { root } from './run-helpers.js';

async function run(argv: readonly string[]) {
  const stdout = collector();
  const stderr = collector();
  const code = await main(argv, { stdout, stderr, env: {}, cwd: root, shutdown: new AbortController().signal });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The flags a help text lists: `  --name …` or `  -h, --name …` at the start of a line. */
const listed = (help: string): string[] => [...help.matchAll(/^ {2}(?:-\w, )?--([a-z][a-z-]*)/gm)].map((m) => m[1]!);

const EVERY_NAME = [...new Set(Object.values(COMMAND_FLAGS).flatMap((table) => Object.keys(table)))];

/** Every value of DEFAULTS, however deep. */
function leaves(value: unknown): unknown[] {
  return value !== null && typeof value === 'object' ? Object.values(value).flatMap(leaves) : [value];
}

describe('one flag table per command', () => {
  it.each(Object.keys(COMMAND_FLAGS))('%s --help lists exactly the flags of its table', async (command) => {
    const help = await run([command, '--help']);
    expect(help.code).toBe(0);
    expect(listed(help.stdout).sort()).toEqual([...Object.keys(COMMAND_FLAGS[command]!), 'help'].sort());
  });

  it.each(Object.keys(COMMAND_FLAGS))('%s parses every flag of its table and no other', async (command) => {
    const table = COMMAND_FLAGS[command]!;
    for (const name of [...EVERY_NAME, 'no-such-flag']) {
      const takesValue = (table[name] ?? Object.values(COMMAND_FLAGS).find((other) => other[name])?.[name])?.value;
      // --help: the parser's verdict on the name, without reading the value
      const result = await run([command, `--${name}`, ...(takesValue ? ['x'] : []), '--help']);
      if (name in table) expect({ name, code: result.code }).toEqual({ name, code: 0 });
      else {
        expect({ name, code: result.code }).toEqual({ name, code: 2 });
        expect(result.stderr).toContain(`Unknown option '--${name}'`);
      }
    }
  });

  it('no help text spells a default; every default of a type is a value of DEFAULTS', () => {
    const values = leaves(DEFAULTS);
    for (const [command, table] of Object.entries(COMMAND_FLAGS))
      for (const [name, spec] of Object.entries(table) as [string, Flag][]) {
        expect({ command, name, help: helpOf(spec) }).not.toMatchObject({ help: expect.stringMatching(/default/i) });
        if (spec.default === undefined) continue;
        const given = Array.isArray(spec.default) ? spec.default : [spec.default];
        const missing = given.filter((value) => !values.includes(value));
        // a list default is DEFAULTS' own list or a list of its values
        if (!values.some((value) => value === spec.default))
          expect({ command, name, missing }).toEqual({ command, name, missing: [] });
      }
  });

  it("eval's --agent help names every adapter in agents/ as cli:NAME", async () => {
    const adapters = (await readdir(path.join(root, 'agents'))).filter((file) => file.endsWith('.yaml'));
    expect(adapters.length).toBeGreaterThan(3);
    const help = (await run(['eval', '--help'])).stdout;
    for (const file of adapters) expect(help).toContain(`cli:${file.replace(/\.yaml$/, '')}`);
  });

  it('docs/cli.md has a row for every flag of every command, under that command', async () => {
    const docs = await readFile(path.join(root, 'docs', 'cli.md'), 'utf8');
    for (const [command, table] of Object.entries(COMMAND_FLAGS)) {
      const start = command === 'eval' ? '<!-- figure:flags-eval -->\n' : `\`hangbench ${command}\`:\n`;
      const block = docs.slice(docs.indexOf(start) + start.length).split(/\n\n`hangbench |\n<!-- \/figure/)[0]!;
      expect({ command, found: docs.includes(start) }).toEqual({ command, found: true });
      const rows = [...block.matchAll(/^\| `--([a-z-]+)` \|/gm)].map((match) => match[1]);
      expect({ command, rows }).toEqual({ command, rows: Object.keys(table) });
    }
  });
});

describe('eval --resume: the table says which flags a resume may be given', () => {
  it('every eval flag has a rule, and the run layer allows exactly the options of its "may change" and "may grow" flags', () => {
    for (const [name, spec] of Object.entries(EVAL_FLAGS) as [string, Flag][])
      expect({ name, rule: RESUME_RULES.includes(spec.resume!) }).toEqual({ name, rule: true });
    const option = (flag: string) => flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const fromTable = Object.fromEntries([
      ...flagsWhere(EVAL_FLAGS, 'may change').map((flag) => [option(flag), 'may change']),
      ...flagsWhere(EVAL_FLAGS, 'may grow').map((flag) => [option(flag), 'may grow']),
    ]);
    expect(fromTable).toEqual(RESUMABLE_OPTIONS);
  });

  it('refuses the recorded flags given, by the names eval takes, and says what may change, from the table', async () => {
    const dir = path.join(root, 'results', 'no-such-run');
    const refused = await run([
      'eval',
      '--resume',
      dir,
      '--set',
      'a=1',
      '--config',
      'test/fixtures/config/sweep.yaml',
      '--budget',
      'wall=1m',
      '--time-scale',
      '2',
      '--json',
      '--concurrency',
      '1',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `hangbench eval: --resume runs with the options recorded in ${dir}/meta.json; leave out --set, --budget, --config, --time-scale (only --concurrency may change, and --repeat grow)\n`,
    );
    // what the message and --help say may be given is what the table says, not a literal beside it
    expect((await run(['eval', '--help'])).stdout).toContain('(only --concurrency may change, and --repeat grow)');
    expect([flagsWhere(EVAL_FLAGS, 'may change'), flagsWhere(EVAL_FLAGS, 'may grow')]).toEqual([
      ['--concurrency'],
      ['--repeat'],
    ]);
  });
});
