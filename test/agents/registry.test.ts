import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentTraits, agentWords, AGENTS } from '../../src/agents/registry.js';
import { adapterOfWord, isInstalledAgent } from '../../src/types/variant.js';

const BUNDLED = readdirSync(path.resolve(import.meta.dirname, '../../agents'))
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => file.slice(0, -'.yaml'.length));

describe('the agent registry', () => {
  it("names every adapter file of agents/ where a config file's cli variant lacks one", () => {
    const message = AGENTS.cli.requires!.message;
    for (const name of BUNDLED) expect(message).toContain(name);
  });

  it('lists the words --agent takes: every kind but module, cli as cli:NAME', () => {
    expect(agentWords()).toEqual(['baseline', 'openai', 'exec', 'replay', 'oracle', 'nop', 'cli:NAME']);
  });

  it("knows an installed agent by its spec's kind, its trace's word and --agent cli:<name>", () => {
    expect(['cli', 'cli:codex'].map(isInstalledAgent)).toEqual([true, true]);
    expect(['baseline', 'client', 'nop'].map(isInstalledAgent)).toEqual([false, false, false]);
    expect(adapterOfWord('cli:codex')).toBe('codex');
    expect(adapterOfWord('codex')).toBeUndefined();
  });

  it('gives the estimates what each agent runs and whether it fixes the cause', () => {
    expect(agentTraits('nop')).toEqual({ commandRuns: 0, fixesCause: false });
    expect(agentTraits('baseline')).toEqual({ commandRuns: 1, fixesCause: false });
    expect(agentTraits('oracle')).toEqual({ commandRuns: 2, fixesCause: true });
    expect(agentTraits('cli')).toEqual({ commandRuns: 2, fixesCause: false });
    expect(agentTraits('toString')).toEqual({ commandRuns: 2, fixesCause: false });
  });
});
