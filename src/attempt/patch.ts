import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

export interface PatchedFile {
  readonly path: string;
  readonly content: string;
}

export type PatchOutcome =
  { readonly ok: true; readonly files: readonly PatchedFile[] } | { readonly ok: false; readonly error: string };

/**
 * Applies a fixture's solution.patch to a scratch copy of its workspace and returns the changed files.
 * The copy lives outside any git repository, so `git apply` treats paths relative to it.
 */
export async function applySolutionPatch(fixtureDir: string): Promise<PatchOutcome> {
  const patchFile = path.join(fixtureDir, 'solution.patch');
  // An empty patch is a draft's "no fix yet" (hangbench capture): it applies, changes nothing, and verify says the rest.
  if ((await readFile(patchFile, 'utf8').catch(() => 'x')).trim() === '') return { ok: true, files: [] };
  const scratch = await mkdtemp(path.join(tmpdir(), 'hangbench-patch-'));
  try {
    await cp(path.join(fixtureDir, 'workspace'), scratch, { recursive: true });
    const git = { cwd: scratch, reject: false, env: { GIT_CEILING_DIRECTORIES: path.dirname(scratch) } } as const;
    const numstat = await execa('git', ['apply', '--numstat', patchFile], git);
    const oneLine = (text: string) => text.trim().split('\n').join('; ');
    if (numstat.exitCode !== 0)
      return {
        ok: false,
        error: `${patchFile}: ${oneLine(numstat.stderr) || 'not a patch git can read'}; write it with git diff`,
      };
    const applied = await execa('git', ['apply', '--whitespace=nowarn', patchFile], git);
    if (applied.exitCode !== 0) {
      return {
        ok: false,
        error: `${patchFile} does not apply to workspace/ (${oneLine(applied.stderr)}); make it again from the current workspace/, e.g. with git diff --no-index`,
      };
    }
    const changed = numstat.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.split('\t')[2]!);
    const files = await Promise.all(
      changed.map(async (file) => ({ path: file, content: await readFile(path.join(scratch, file), 'utf8') })),
    );
    return { ok: true, files };
  } catch (error) {
    return { ok: false, error: `${patchFile}: ${(error as Error).message}` };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
