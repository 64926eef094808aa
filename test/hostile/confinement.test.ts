import { link, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { makeSandbox, run } from '../sandbox/helpers.js';
import { requireCapability } from '../support/capability.js';

let sandbox: Sandbox;
let outside: string;
beforeAll(async () => {
  sandbox = await makeSandbox('confine');
  outside = await mkdtemp(join(tmpdir(), 'hangbench-outside-'));
  await writeFile(join(outside, 'secret.txt'), 'outside content\n');
});
afterAll(async () => {
  await sandbox.leakScan();
  await sandbox.dispose();
  await rm(outside, { recursive: true, force: true });
});

describe('agent file actions cannot leave the workspace', () => {
  it.each([
    ['..', /leaves the workspace through \.\./],
    ['../../etc/passwd', /leaves the workspace through \.\./],
    ['sub/../../outside.txt', /leaves the workspace through \.\./],
    ['/etc/hostname', /is absolute/],
    ['nul\0byte', /contains a NUL byte/],
  ])('refuses to write %j', async (path, why) => {
    await expect(sandbox.writeFile(path, 'x')).rejects.toThrow(why);
  });

  it('refuses a symlink a command planted that leads out, for reading and writing', async () => {
    const { proc } = run(sandbox, `ln -s ${join(outside, 'secret.txt')} planted-link`);
    await proc.exited;
    await expect(sandbox.readFile('planted-link')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    await expect(sandbox.writeFile('planted-link', 'overwritten')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside content\n');
  });

  it('under bubblewrap, a command cannot even see a file outside to hard-link it', async (ctx) => {
    requireCapability(ctx, 'bubblewrap', sandbox.capabilities.isolation === 'bubblewrap');
    const { proc, out } = run(sandbox, `ln ${join(outside, 'secret.txt')} hard-link.txt 2>&1 || echo refused`);
    await proc.exited;
    expect(out.text).toMatch(/No such file or directory[\s\S]*refused/);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside content\n');
  });

  it('refuses to write through a hard link to a file outside the workspace, and leaves that file alone', async () => {
    // Under bubblewrap no command can make such a link (above); the harness's own check still stands behind it.
    if (sandbox.capabilities.isolation === 'bubblewrap')
      await link(join(outside, 'secret.txt'), join(sandbox.workspace, 'hard-link.txt'));
    else
      expect(
        (await run(sandbox, `ln ${join(outside, 'secret.txt')} hard-link.txt && echo linked`).proc.exited).exitCode,
      ).toBe(0);
    const refusal = sandbox.writeFile('hard-link.txt', 'overwritten');
    await expect(refusal).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    await expect(sandbox.writeFile('hard-link.txt', 'overwritten')).rejects.toThrow(
      /is a hard link \(2 names\) to a file that did not come from the workspace/,
    );
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside content\n');
  });

  it('still writes a workspace file that a command hard-linked elsewhere (the inode is the workspace copy)', async () => {
    await link(join(sandbox.workspace, 'hello.sh'), join(outside, 'copy-of-hello.sh'));
    await sandbox.writeFile('hello.sh', 'echo changed\n');
    expect(await sandbox.readFile('hello.sh')).toBe('echo changed\n');
  });

  it('still writes a file the agent created, after a command linked it', async () => {
    await sandbox.writeFile('mine.txt', 'one');
    const { proc } = run(sandbox, 'ln mine.txt mine-too.txt');
    await proc.exited;
    await sandbox.writeFile('mine.txt', 'two');
    expect(await sandbox.readFile('mine-too.txt')).toBe('two');
  });

  it('copies hidden files over a planted symlink without following it out', async () => {
    const hidden = await mkdtemp(join(tmpdir(), 'hangbench-hidden-'));
    await writeFile(join(hidden, 'check.sh'), 'echo check\n');
    await symlink(join(outside, 'secret.txt'), join(sandbox.workspace, 'check.sh'));
    await sandbox.overlay(hidden);
    expect(await sandbox.readFile('check.sh')).toBe('echo check\n');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside content\n');
    await rm(hidden, { recursive: true });
  });
});

describe('fixtures get no network', () => {
  it('sees only loopback: connects out fail, a server on 127.0.0.1 answers', async (ctx) => {
    requireCapability(
      ctx,
      'network namespace',
      sandbox.capabilities.netns || sandbox.capabilities.isolation === 'bubblewrap',
    );
    const script = [
      'import socket',
      'for host in ("1.1.1.1", "8.8.8.8"):',
      '    try:',
      '        socket.create_connection((host, 53), timeout=2)',
      '        print(host, "connected")',
      '    except OSError as error:',
      '        print(host, "failed:", error.strerror)',
      'server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen()',
      'socket.create_connection(server.getsockname(), timeout=2).close()',
      'print("loopback ok")',
    ].join('\n');
    const { proc, out } = run(sandbox, `ip -o link show | cut -d: -f2; python3 -c '${script}'`);
    await proc.exited;
    expect(out.text.split('\n')[0]?.trim()).toBe('lo');
    expect(out.text).toContain('1.1.1.1 failed: Network is unreachable');
    expect(out.text).toContain('8.8.8.8 failed: Network is unreachable');
    expect(out.text).toContain('loopback ok');
  });
});
