import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/run/config-file.js';
import { resolveOptions } from '../../src/run/options.js';
import { expandVariants, variantName } from '../../src/run/variants.js';
import { HangbenchError } from '../../src/types/errors.js';

const CONFIGS = path.resolve(import.meta.dirname, '../fixtures/config');

describe('variants from the command line', () => {
  it('are the cross product of the axes, a setting multiplying only the agents that take it', () => {
    const variants = expandVariants({
      agent: ['baseline', 'oracle'],
      mode: ['interval', 'no-output'],
      intervalMs: [2000, 5000],
      hungTicks: [1, 2],
    });
    // baseline: 2 hung-ticks × 2 modes × 2 intervals = 8; oracle: 2 modes × 2 intervals = 4
    expect(variants).toHaveLength(12);
    expect(variants.map((variant) => variant.name)).toContain('baseline-k1·no-output-5s');
    expect(variants.map((variant) => variant.name)).toContain('oracle·interval-2s');
    expect(new Set(variants.map((variant) => variant.name)).size).toBe(12);
  });

  it("map --interval to each mode's own period, and give poll and wait-pid none", () => {
    const variants = expandVariants({
      agent: 'baseline',
      mode: ['interval', 'no-output', 'backoff', 'timeout', 'poll', 'wait-pid'],
      intervalMs: [1000, 3000],
    });
    expect(variants.map((variant) => variant.monitor)).toEqual([
      { mode: 'interval', everyMs: 1000 },
      { mode: 'interval', everyMs: 3000 },
      { mode: 'no-output', afterMs: 1000 },
      { mode: 'no-output', afterMs: 3000 },
      { mode: 'backoff', firstMs: 1000, factor: 2, maxMs: 60_000 },
      { mode: 'backoff', firstMs: 3000, factor: 2, maxMs: 60_000 },
      { mode: 'timeout', afterMs: 1000 },
      { mode: 'timeout', afterMs: 3000 },
      { mode: 'poll' },
      { mode: 'wait-pid' },
    ]);
  });

  it('make installed-agent variants from --agent cli:NAME × every combination of --set, with the mode none or inband', () => {
    const variants = expandVariants({
      agent: ['cli:codex'],
      mode: ['none', 'inband'],
      intervalMs: 5000,
      model: 'm',
      settings: { unified_exec: ['enable', 'disable'] },
    });
    expect(variants.map((variant) => variant.name)).toEqual([
      'cli-codex-unified_exec-enable·none',
      'cli-codex-unified_exec-enable·inband-5s',
      'cli-codex-unified_exec-disable·none',
      'cli-codex-unified_exec-disable·inband-5s',
    ]);
    expect(variants[1]).toMatchObject({
      agent: { agent: 'cli', adapter: 'codex', model: 'm', settings: { unified_exec: 'enable' } },
      monitor: { mode: 'inband', everyMs: 5000 },
    });
    expect(() => expandVariants({ agent: 'cli:generic' })).toThrow(/--agent cli:generic needs --cmd/);
    expect(() => expandVariants({ agent: 'cli:Bad_Name' })).toThrow(/names an adapter file under agents/);
  });

  it('--stdin is an axis named in the variant, refused for installed CLIs and for a wiring that does not exist', () => {
    const variants = expandVariants({ agent: 'baseline', stdin: ['pipe', 'null', 'tty'] });
    expect(variants.map((variant) => [variant.name, variant.stdin])).toEqual([
      ['baseline-k2·interval-10s·stdin-pipe', 'pipe'],
      ['baseline-k2·interval-10s·stdin-null', 'null'],
      ['baseline-k2·interval-10s·stdin-tty', 'tty'],
    ]);
    expect(expandVariants({ agent: 'baseline' })[0]).not.toHaveProperty('stdin');
    expect(() => expandVariants({ agent: 'baseline', stdin: ['closed'] })).toThrow(
      'unknown stdin "closed"; choose from pipe, null, tty',
    );
    expect(() => expandVariants({ agent: 'cli:codex', model: 'm', stdin: ['null'] })).toThrow(
      /--stdin wires the commands the harness runs/,
    );
  });

  it('default to one baseline variant with a stable name; hints off is part of the name', () => {
    expect(resolveOptions({}).variants).toEqual([
      {
        name: 'baseline-k2·interval-10s',
        agent: { agent: 'baseline', hungTicks: 2 },
        monitor: { mode: 'interval', everyMs: 10_000 },
      },
    ]);
    expect(expandVariants({ agent: 'nop', hints: [true, false] }).map((variant) => variant.name)).toEqual([
      'nop·interval-10s',
      'nop·interval-10s·hints-off',
    ]);
    expect(variantName({ agent: 'openai', prompt: 'prompts/my style' }, { mode: 'poll' })).toBe('openai-my-style·poll');
  });

  it('refuse an unknown agent or mode, and an exec agent without its command, with what to do', () => {
    expect(() => expandVariants({ agent: 'gpt' })).toThrow(
      new HangbenchError(
        'USAGE',
        'unknown agent "gpt"; choose from baseline, openai, exec, replay, oracle, nop, cli:<name>',
      ),
    );
    expect(() => expandVariants({ mode: 'sometimes' })).toThrow(
      /unknown mode "sometimes"; choose from interval, no-output, backoff, timeout, poll, wait-pid/,
    );
    expect(() => expandVariants({ agent: 'exec' })).toThrow(/--agent exec needs --cmd/);
  });
});

describe('variants from a config file', () => {
  it('reads named variants, repeats, the seed, cases relative to the file and shared budgets', async () => {
    const config = await loadConfigFile(path.join(CONFIGS, 'sweep.yaml'), process.cwd());
    expect(config).toMatchObject({ repeat: 3, seed: 7 });
    expect(config.caseInputs?.map((file) => path.basename(file))).toEqual([
      'py-pipe-deadlock.yaml',
      'ctl-slow-migrations.yaml',
    ]);
    expect(config.variants).toEqual([
      {
        name: 'patient',
        agent: { agent: 'baseline', hungTicks: 4 },
        monitor: { mode: 'no-output', afterMs: 5000, everyMs: 2000 },
        budgets: { wallMs: 120_000 },
      },
      {
        name: 'eager',
        agent: { agent: 'baseline', hungTicks: 1 },
        monitor: { mode: 'interval', everyMs: 10_000 },
        budgets: { wallMs: 120_000 },
      },
      {
        name: 'oracle·backoff-1s-x3-max-20s·hints-off',
        agent: { agent: 'oracle' },
        monitor: { mode: 'backoff', firstMs: 1000, factor: 3, maxMs: 20_000 },
        budgets: { wallMs: 120_000 },
        hints: false,
      },
    ]);
  });

  it('names file, line, column and field for every problem in a bad one', async () => {
    const file = path.join(CONFIGS, 'bad.yaml');
    const error = (await loadConfigFile(file, process.cwd()).catch((caught: unknown) => caught)) as HangbenchError;
    expect(error).toBeInstanceOf(HangbenchError);
    expect(error.message).toContain(
      `${file}:4:5 variants[0].hungTiks: unknown field "hungTiks" — did you mean "hungTicks"?`,
    );
    expect(error.message).toContain(
      `${file}:6:13 variants[1].prompt: prompt applies to agent openai, not oracle; remove it`,
    );
    expect(error.message).toContain(
      `${file}:9:15 variants[2].interval: interval applies to mode interval, no-output, backoff, timeout, none, inband, not poll; remove it`,
    );
  });

  it('refuses two variants of one name', async () => {
    const dir = await import('node:fs/promises').then((fs) =>
      fs.mkdtemp(path.join(import.meta.dirname, '../../node_modules/.cache-config-')),
    );
    const file = path.join(dir, 'twice.yaml');
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(file, 'variants:\n  - { name: a, agent: nop }\n  - { name: a, agent: oracle }\n'),
    );
    await expect(loadConfigFile(file, process.cwd())).rejects.toThrow(
      'two variants are both named "a"; give each a unique name',
    );
    await import('node:fs/promises').then((fs) => fs.rm(dir, { recursive: true, force: true }));
  });
});

describe('module agents as variants', () => {
  const root = path.resolve(import.meta.dirname, '../..');

  it('a path in --agent is a module agent, next to built-in agents, named after its file', () => {
    const variants = expandVariants({ agent: ['baseline', './examples/module-agent.mjs'], cwd: root });
    expect(variants.map((variant) => [variant.name, variant.agent])).toEqual([
      ['baseline-k2·interval-10s', { agent: 'baseline', hungTicks: 2 }],
      ['module-module-agent·interval-10s', { agent: 'module', path: './examples/module-agent.mjs' }],
    ]);
  });

  it('a missing module file and a bare "module" are usage errors that say what to pass', () => {
    expect(() => expandVariants({ agent: './nope.mjs', cwd: root })).toThrow(/--agent \.\/nope\.mjs: no such file/);
    expect(() => expandVariants({ agent: 'module', cwd: root })).toThrow(/--agent takes the module's path itself/);
  });

  it('a config file takes agent: module with path: relative to the config file, and refuses one without path', async () => {
    const dir = path.join(root, 'examples');
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const scratch = await mkdtemp(path.join(tmpdir(), 'hangbench-config-module-'));
    try {
      await writeFile(
        path.join(scratch, 'ok.yaml'),
        `variants:\n  - agent: module\n    path: ${path.relative(scratch, path.join(dir, 'module-agent.mjs'))}\n`,
      );
      const config = await loadConfigFile(path.join(scratch, 'ok.yaml'), root);
      expect(config.variants[0]?.agent).toEqual({ agent: 'module', path: path.join(dir, 'module-agent.mjs') });
      await writeFile(path.join(scratch, 'bad.yaml'), 'variants:\n  - agent: module\n');
      await expect(loadConfigFile(path.join(scratch, 'bad.yaml'), root)).rejects.toThrow(/agent module needs path/);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
