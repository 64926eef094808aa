import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirs } from '../../src/trace/make-dirs.js';
import { resultsFaultOf } from '../../src/trace/results-fault.js';

describe('makeDirs', () => {
  it('makes every missing folder, and accepts folders that exist', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'hangbench-make-dirs-'));
    const deep = path.join(root, 'a', 'b', 'c');
    await makeDirs(deep);
    await makeDirs(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
  });

  it("fails at once with ENOENT under /proc, where Node's recursive mkdir retries forever", async () => {
    const error = await makeDirs('/proc/nope/run').catch((caught: unknown) => caught);
    expect(resultsFaultOf(error)).toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a path through a file (ENOTDIR or EEXIST), and with `within`, a removed base folder (ENOENT)', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'hangbench-make-dirs-'));
    await writeFile(path.join(root, 'file'), 'x');
    const through = await makeDirs(path.join(root, 'file', 'sub')).catch((caught: unknown) => caught);
    expect((through as NodeJS.ErrnoException).code).toMatch(/^(ENOTDIR|EEXIST)$/);
    const base = path.join(root, 'run');
    await makeDirs(path.join(base, 'case'), root);
    await rm(base, { recursive: true });
    const gone = await makeDirs(path.join(base, 'case', 'variant'), base).catch((caught: unknown) => caught);
    expect(resultsFaultOf(gone)).toMatchObject({ code: 'ENOENT' });
    await expect(stat(base)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
