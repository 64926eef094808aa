import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adapterDirs,
  expand,
  loadAdapter,
  parseAdapter,
  resolveSettings,
  resolveTimeouts,
} from '../../../src/agents/cli/adapter.js';

describe('adapters', () => {
  it('the bundled ones load and pin exact versions', async () => {
    for (const name of ['codex', 'opencode', 'generic']) {
      const adapter = await loadAdapter(name);
      expect(adapter.name).toBe(name);
      if (adapter.package) expect(adapter.version).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(adapterDirs({}).at(-1)).toBe(path.resolve(import.meta.dirname, '../../../agents'));
  });

  it('a bad one gets one line per problem with file:line:column and the field', () => {
    const text = 'name: broken\ndescription: x\npackage: foo\nversion: latest\nbin: foo\ncommand: foo\nsetings: {}\n';
    expect(() => parseAdapter('/a/broken.yaml', text)).toThrow(/\/a\/broken\.yaml:4:10 version: an exact version/);
    expect(() => parseAdapter('/a/broken.yaml', text)).toThrow(/setings/);
    expect(() => parseAdapter('/a/other.yaml', 'name: broken\ndescription: x\ncommand: foo\n')).toThrow(
      /name is "broken" but the file is other\.yaml/,
    );
  });

  it('settings: defaults filled in, unknown names and values off the choices refused; placeholders expanded', async () => {
    const codex = await loadAdapter('codex');
    expect(resolveSettings(codex, {})).toEqual({ unified_exec: 'enable' });
    expect(() => resolveSettings(codex, { unified_exec: 'maybe' })).toThrow(/takes enable, disable/);
    expect(() => resolveSettings(codex, { shell: 'zsh' })).toThrow(/has no setting "shell"/);
    expect(expand('a {model} ${HOME} {unknown}', { model: 'm' })).toBe('a m ${HOME} {unknown}');
    await expect(loadAdapter('nonesuch')).rejects.toThrow(/no adapter "nonesuch"/);
  });

  it("timeouts: the tool's own deadlines as data, a setting followed, a bad one refused where it is written", async () => {
    const opencode = await loadAdapter('opencode');
    expect(resolveTimeouts(opencode, resolveSettings(opencode, {}))).toEqual({ tool: 120_000 });
    expect(resolveTimeouts(opencode, resolveSettings(opencode, { bash_timeout_ms: '10000' }))).toEqual({
      tool: 10_000,
    });
    const gemini = await loadAdapter('gemini');
    expect(resolveTimeouts(gemini, resolveSettings(gemini, {}))).toEqual({ idle: 300_000 });
    const pi = await loadAdapter('pi');
    expect(resolveTimeouts(pi, resolveSettings(pi, {}))).toEqual({});
    const generic = await loadAdapter('generic');
    expect(resolveTimeouts(generic, resolveSettings(generic, {}))).toBeNull();
    const text = 'name: bad\ndescription: x\ncommand: foo\ntimeouts:\n  tool: soon\n';
    expect(() => parseAdapter('/a/bad.yaml', text)).toThrow(
      /\/a\/bad\.yaml:5:9 timeouts\.tool: "soon" is not a duration/,
    );
  });

  it('every bundled adapter with a probe: declares its timeouts', async () => {
    const { readdir } = await import('node:fs/promises');
    const names = (await readdir(adapterDirs({}).at(-1)!)).filter((file) => file.endsWith('.yaml'));
    for (const file of names) {
      const adapter = await loadAdapter(path.basename(file, '.yaml'));
      if (adapter.probe) expect(adapter.timeouts, adapter.name).toBeDefined();
    }
  });
});
