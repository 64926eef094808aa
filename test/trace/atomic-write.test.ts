import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeJsonAtomic } from '../../src/trace/atomic-write.js';

describe('writeFileAtomic', () => {
  it('replaces the file whole and leaves no temporary file beside it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-atomic-'));
    const file = path.join(dir, 'score.json');
    await writeFile(file, 'old');
    await writeJsonAtomic(file, { solved: true });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ solved: true });
    expect(await readdir(dir)).toEqual(['score.json']);
  });

  it('never shows a reader half a file: concurrent readers see the old text or the new, whole', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-atomic-'));
    const file = path.join(dir, 'summary.json');
    const versions = Array.from({ length: 20 }, (_, i) => JSON.stringify({ version: i, pad: 'x'.repeat(200_000) }));
    await writeFileAtomic(file, versions[0]!);
    const seen = new Set<string>();
    let writing = true;
    const reader = (async () => {
      while (writing) seen.add(await readFile(file, 'utf8'));
    })();
    for (const text of versions.slice(1)) await writeFileAtomic(file, text);
    writing = false;
    await reader;
    for (const text of seen) expect(versions).toContain(text);
  });

  it('fails without touching the target when the folder is missing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-atomic-'));
    await expect(writeFileAtomic(path.join(dir, 'missing', 'x.json'), '{}')).rejects.toThrow(/ENOENT/);
  });
});
