import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderReports } from '../../src/run/run-record.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('renderReports (a normal run and each --repeat-until round alike)', () => {
  it("writes a report that fails to render to the run's errors.log, and resolves", async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hangbench-reports-'));
    await renderReports(async () => {
      throw new Error('junit broke');
    }, dir);
    expect(await readFile(path.join(dir, 'errors.log'), 'utf8')).toMatch(/^reports: Error: junit broke/);
  });

  it('resolves where errors.log cannot be written either', async () => {
    await expect(
      renderReports(async () => {
        throw new Error('broke');
      }, '/nonexistent/run'),
    ).resolves.toBeUndefined();
  });
});
