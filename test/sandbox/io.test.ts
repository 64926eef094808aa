import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { requireCapability } from '../support/capability.js';
import { makeSandbox, Output, run } from './helpers.js';

const PLANTED = {
  OPENAI_API_KEY: 'sk-planted',
  GITHUB_TOKEN: 'ghp-planted',
  FOO_SECRET: 'planted',
  PYTHONPATH: '/planted',
};
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await makeSandbox('io');
});
afterAll(async () => {
  await sandbox.dispose();
});

describe('what a command sees', () => {
  it('has stdin as an open pipe: a program waiting for a line gets the one written to it', async () => {
    const { proc, out } = run(sandbox, 'echo "stdin is $(readlink /proc/$$/fd/0)"; read line; echo "got: $line"');
    // Node's 'pipe' stdio is a socketpair: the program blocks in unix_stream_read_generic, not anon_pipe_read.
    await out.line(/stdin is (pipe|socket):/);
    proc.stdin.write('hello\n');
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0, signal: null });
    expect(out.text).toContain('got: hello');
  });

  it('with stdinNull has /dev/null as stdin: a read ends at once at end of input, not a terminal', async () => {
    const proc = sandbox.spawn(
      'echo "stdin is $(readlink /proc/$$/fd/0)"; [ -t 0 ] && echo tty || echo "not a tty"; read line; echo "read: $?"',
      { commandId: 3, stdinNull: true },
    );
    const out = Output.of(sandbox, proc);
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0, signal: null });
    expect(out.text).toContain('stdin is /dev/null');
    expect(out.text).toContain('not a tty');
    expect(out.text).toContain('read: 1');
  });

  describe('environment', () => {
    beforeAll(() => Object.assign(process.env, PLANTED));
    afterAll(() => {
      for (const name of Object.keys(PLANTED)) delete process.env[name];
    });

    it('carries no secret, whatever the source, and keeps HOME and TMPDIR inside the sandbox', async () => {
      const { proc, out } = run(sandbox, 'env', 2, { DB_PASSWORD: 'planted', EXTRA_FLAG: 'kept', HOME: '/root' });
      await proc.exited;
      const env = Object.fromEntries(
        out.text
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      for (const name of [...Object.keys(PLANTED), 'DB_PASSWORD', 'HANGBENCH_CMD'])
        expect(env).not.toHaveProperty(name);
      expect(out.text).not.toContain('planted');
      expect(env).toMatchObject({
        HOME: join(sandbox.root, 'home'),
        TMPDIR: join(sandbox.root, 'tmp'),
        HANGBENCH_ATTEMPT: sandbox.attemptId,
        HANGBENCH_TIME_SCALE: '1',
        EXTRA_FLAG: 'kept',
      });
      expect(
        Object.keys(env)
          .filter((name) => name.startsWith('HANGBENCH_'))
          .sort(),
      ).toEqual(['HANGBENCH_ATTEMPT', 'HANGBENCH_COMMAND', 'HANGBENCH_TIME_SCALE']);
    });
  });

  it('runs in a copy of the workspace with file modes kept, at nice 10, and node and python3 start', async () => {
    const { proc, out } = run(
      sandbox,
      './hello.sh && pwd && cut -d" " -f19 /proc/$$/stat && node -e "console.log(\'node ok\')" && python3 -c "print(\'python ok\')"',
      3,
    );
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(out.text.split('\n')).toEqual([
      'hello from an executable script',
      sandbox.workspace,
      '10',
      'node ok',
      'python ok',
      '',
    ]);
  });

  it('has no network but loopback', async (ctx) => {
    requireCapability(
      ctx,
      'network namespace',
      sandbox.capabilities.netns || sandbox.capabilities.isolation === 'bubblewrap',
    );
    const loopback =
      'import socket; s = socket.create_server(("127.0.0.1", 0)); socket.create_connection(s.getsockname()); print("loopback ok")';
    const { proc, out } = run(sandbox, `ip -o link | cut -d: -f2; python3 -c '${loopback}'`, 5);
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(out.text.split('\n').map((line) => line.trim())).toEqual(['lo', 'loopback ok', '']);
  });
});
