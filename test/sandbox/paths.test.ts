import { mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { makeSandbox } from './helpers.js';

let sandbox: Sandbox;
let outside: string;
beforeAll(async () => {
  sandbox = await makeSandbox('paths');
  outside = await mkdtemp(join(tmpdir(), 'hangbench-outside-'));
  await symlink('/etc', join(sandbox.workspace, 'etc-link'));
  await symlink(join(outside, 'created-by-escape'), join(sandbox.workspace, 'dangling-out'));
  await symlink('sub', join(sandbox.workspace, 'sub-link'));
});
afterAll(async () => {
  await sandbox.dispose();
  await rm(outside, { recursive: true, force: true });
});

describe('agent file actions stay in the workspace', () => {
  it.each([
    ['../x', /leaves the workspace/],
    ['sub/../../x', /leaves the workspace/],
    ['/etc/passwd', /is absolute/],
    ['etc-link/passwd', /symlink to \/etc\/passwd, outside the workspace/],
    ['etc-link', /symlink/],
  ])('refuses %s', async (path, why) => {
    const refusal = sandbox.resolvePath(path);
    await expect(refusal).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    await expect(refusal).rejects.toThrow(why);
    await expect(sandbox.resolvePath(path)).rejects.toThrow(`path "${path}"`);
    await expect(sandbox.resolvePath(path)).rejects.toThrow('paths must be relative to the workspace');
    await expect(sandbox.readFile(path)).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
  });

  it('does not write through a dangling symlink that points outside', async () => {
    await expect(sandbox.writeFile('dangling-out', 'x')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    await expect(stat(join(outside, 'created-by-escape'))).rejects.toThrow(/ENOENT/);
  });

  it('reads, writes (creating parents) and follows symlinks that stay inside', async () => {
    expect(await sandbox.readFile('sub/inside.txt')).toBe('inside\n');
    expect(await sandbox.readFile('sub-link/inside.txt')).toBe('inside\n');
    expect(await sandbox.readFile('./sub/../sub/inside.txt')).toBe('inside\n');
    expect(await sandbox.writeFile('new/deeper/file.txt', 'héllo')).toBe(6);
    expect(await readFile(join(sandbox.workspace, 'new/deeper/file.txt'), 'utf8')).toBe('héllo');
    expect(await sandbox.resolvePath('.')).toBe(sandbox.workspace);
  });

  it('overlays a folder over the workspace, keeping modes', async () => {
    const hidden = await mkdtemp(join(tmpdir(), 'hangbench-hidden-'));
    await writeFile(join(hidden, 'check.sh'), 'echo checked\n', { mode: 0o755 });
    await writeFile(join(hidden, 'hello.sh'), 'echo replaced\n', { mode: 0o644 });
    await sandbox.overlay(hidden);
    expect((await stat(join(sandbox.workspace, 'check.sh'))).mode & 0o777).toBe(0o755);
    expect(await sandbox.readFile('hello.sh')).toBe('echo replaced\n');
    expect(await sandbox.readFile('sub/inside.txt')).toBe('inside\n');
    await rm(hidden, { recursive: true });
  });
});
