import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { collector } from '../support/collector.js';
import { loadConfigFile } from '../../src/run/config-file.js';
import { readRunMeta } from '../../src/run/meta.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

async function sourceFiles(): Promise<string[]> {
  return (await readdir(SRC, { recursive: true }))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(SRC, file));
}

const scratch: string[] = [];
afterEach(async () => {
  for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hangbench-errors-'));
  scratch.push(dir);
  return dir;
}

function captureIo(cwd: string) {
  const stderr = collector();
  return { stderr, io: { stdout: collector(), stderr, env: {}, cwd, shutdown: new AbortController().signal } };
}

describe('error codes', () => {
  it('every code of HangbenchErrorCode is raised somewhere in src/, and none is raised that the type lacks', async () => {
    const declared = [
      ...(await readFile(path.join(SRC, 'types/errors.ts'), 'utf8')).matchAll(/^\s*\| '([A-Z_]+)'/gm),
    ].map((match) => match[1]!);
    const raised = new Set<string>();
    for (const file of await sourceFiles()) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/(?:HangbenchError\(|super\()\s*'([A-Z_]+)'/g)) raised.add(match[1]!);
    }
    expect(declared.length).toBeGreaterThan(5);
    expect(declared.filter((code) => !raised.has(code))).toEqual([]);
    expect([...raised].filter((code) => !declared.includes(code))).toEqual([]);
  });

  it('a corrupt meta.json is RUN_FOLDER, an invalid config file CONFIG', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'meta.json'), '{ not json');
    await expect(readRunMeta(dir)).rejects.toMatchObject({
      code: 'RUN_FOLDER',
      message: expect.stringContaining('not valid JSON'),
    });
    const config = path.join(dir, 'hangbench.config.yaml');
    await writeFile(config, 'variants: 3\n');
    await expect(loadConfigFile(config, dir)).rejects.toMatchObject({
      code: 'CONFIG',
      message: expect.stringContaining('invalid config file'),
    });
  });

  it('the CLI exits 2 on the user input codes (a flag, a config file, a run folder) and names the command', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'meta.json'), '{ not json');
    const usage = captureIo(dir);
    expect(await main(['score'], usage.io)).toBe(2);
    expect(usage.stderr.text).toContain('hangbench score: score takes exactly one run folder');
    const runFolder = captureIo(dir);
    expect(await main(['score', dir], runFolder.io)).toBe(2);
    expect(runFolder.stderr.text).toMatch(/^hangbench score: no trace.jsonl under /);
    const config = captureIo(dir);
    await writeFile(path.join(dir, 'bad.yaml'), 'variants: 3\n');
    expect(await main(['eval', '--config', path.join(dir, 'bad.yaml')], config.io)).toBe(2);
    expect(config.stderr.text).toMatch(/^hangbench eval: invalid config file/);
  });
});
