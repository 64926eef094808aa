import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

/** Every `from '…'` of every file under src/<folder>, as the folder it resolves to (top-level files count as `.`). */
async function importsOf(folder: string): Promise<Array<{ file: string; target: string }>> {
  const files = (await readdir(path.join(SRC, folder), { recursive: true })).filter((file) => file.endsWith('.ts'));
  const found: Array<{ file: string; target: string }> = [];
  for (const file of files) {
    const full = path.join(SRC, folder, file);
    const text = await readFile(full, 'utf8');
    for (const match of text.matchAll(/from '(\.[^']+)'/g)) {
      const resolved = path.relative(SRC, path.resolve(path.dirname(full), match[1]!));
      found.push({ file: path.join(folder, file), target: resolved.includes(path.sep) ? resolved.split(path.sep)[0]! : '.' });
    }
  }
  return found;
}

/** The one direction of imports in docs/architecture.md: cli → runner → {agents, monitor, sandbox} → types. */
const RUN_STAGES = ['run', 'attempt', 'cases', 'check'];
const MAY_NOT_IMPORT: Record<string, readonly string[]> = {
  run: ['cli', 'report', 'check'],
  attempt: ['cli', 'report', 'check', 'cases'],
  cases: ['cli', 'report', 'run', 'check', 'agents', 'monitor'],
  check: ['cli', 'report'],
  capture: ['cli', 'report', 'run', 'check', 'agents'],
  agents: ['cli', ...RUN_STAGES, 'report', 'scorers', 'summary'],
  monitor: ['cli', ...RUN_STAGES, 'report', 'scorers', 'summary', 'agents'],
  sandbox: ['cli', ...RUN_STAGES, 'report', 'scorers', 'summary', 'agents', 'monitor'],
  scorers: ['cli', ...RUN_STAGES, 'report', 'agents', 'monitor', 'sandbox', 'summary'],
  summary: ['cli', ...RUN_STAGES, 'report', 'agents', 'monitor', 'sandbox'],
  trace: ['cli', ...RUN_STAGES, 'report', 'agents', 'monitor', 'sandbox', 'scorers', 'summary'],
  stats: ['cli', ...RUN_STAGES, 'report', 'agents', 'monitor', 'sandbox', 'scorers', 'summary', 'trace'],
  types: ['cli', ...RUN_STAGES, 'report', 'agents', 'monitor', 'sandbox', 'scorers', 'summary', 'trace', 'stats'],
};

describe('the direction of imports', () => {
  for (const [folder, forbidden] of Object.entries(MAY_NOT_IMPORT)) {
    it(`src/${folder} imports nothing from ${forbidden.join(', ')}`, async () => {
      const wrong = (await importsOf(folder)).filter((entry) => forbidden.includes(entry.target));
      expect(wrong).toEqual([]);
    });
  }
});
