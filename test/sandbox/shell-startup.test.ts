import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeOnLinux } from '../support/capability.js';
import { run, sandboxPerTest } from './helpers.js';

const makeSandbox = sandboxPerTest();
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A command's HOME is the sandbox's, and the agent writes it. `bash -c` with a socket as stdin (Node's pipes are
 * socketpairs) takes itself for rshd's and runs ~/.bashrc: the launcher, which runs on the host before it enters the
 * jail, would run what the agent wrote there as the harness's user.
 */
describeOnLinux('startup files the agent writes into its HOME', () => {
  it.each(['pipe', 'pty'] as const)(
    'are run by no shell of the harness, on the host or in the sandbox (%s)',
    async (terminal) => {
      const host = mkdtempSync(join(tmpdir(), 'hangbench-rc-'));
      scratch.push(host);
      chmodSync(host, 0o777);
      const marker = join(host, 'ran-on-host');
      const sandbox = await makeSandbox('shell-startup');
      const rc = `id > ${marker} 2>/dev/null; echo startup-file-ran >&2`;
      const write = run(sandbox, `for f in .bashrc .bash_profile .profile; do echo '${rc}' > ~/$f; done; echo written`);
      await write.proc.exited;
      expect(write.out.text).toContain('written');
      const proc = sandbox.spawn('echo second', { commandId: 2, terminal });
      let text = '';
      for (const stream of [proc.stdout, proc.stderr]) stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
      await proc.exited;
      expect(text).toContain('second');
      expect(text).not.toContain('startup-file-ran');
      expect(existsSync(marker)).toBe(false);
    },
    30_000,
  );
});
