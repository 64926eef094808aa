import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { probeHost, type CommandRunner, type Sandbox } from '../../src/sandbox/index.js';
import { requireCapability } from '../support/capability.js';
import { makeSandbox, Output, run } from './helpers.js';

const PROJECT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const jailed = (await probeHost()).isolation === 'bubblewrap';

let hidden: string;
let sandbox: Sandbox | undefined;
beforeAll(async () => {
  hidden = await mkdtemp(join(tmpdir(), 'hangbench-hidden-'));
  await writeFile(
    join(hidden, 'check.sh'),
    'echo "check sees: $(cat fixed.txt)"; test -e /tmp/agent-scratch && echo tmp-shared || echo tmp-fresh; pgrep -x sleep -u "$(id -u)" | wc -l\n',
  );
});
afterAll(() => rm(hidden, { recursive: true, force: true }));
afterEach(async () => {
  await sandbox?.leakScan();
  await sandbox?.dispose();
  sandbox = undefined;
});

async function sh(target: CommandRunner, command: string, commandId: number): Promise<string> {
  const proc = target.spawn(command, { commandId });
  const out = new Output(proc.stdout, proc.stderr);
  await proc.exited;
  return out.text;
}

describe('verify under bubblewrap', () => {
  beforeEach((ctx) => requireCapability(ctx, 'bubblewrap', jailed));
  it("runs in a fresh sandbox: the agent never sees hidden/, the checks see the agent's files and none of what it left", async () => {
    sandbox = await makeSandbox('verify');
    const box = sandbox;
    await sh(box, 'echo agent-fix > fixed.txt; echo scratch > /tmp/agent-scratch; sleep 300 >/dev/null 2>&1 &', 1);
    const verifier = await box.forVerify(hidden);
    expect(await sh(verifier, 'bash check.sh', 10_000)).toBe('check sees: agent-fix\ntmp-fresh\n0\n');
    // The agent's sandbox still has no check.sh, and its leftover sleep is still there for the leak scan.
    expect(await sh(box, 'ls check.sh 2>&1; pgrep -x sleep -u "$(id -u)" | wc -l', 2)).toMatch(
      /No such file or directory\n1\n$/,
    );
    expect((await box.leakScan()).leaked.map((leak) => leak.command)).toEqual(['sleep 300']);
  });

  it('hostPid maps a pid a command printed to the process the host sees', async () => {
    sandbox = await makeSandbox('host-pid');
    const { proc, out } = run(sandbox, 'echo "me $$"; exec sleep 300');
    const pid = await out.pid('me');
    expect(proc.pids()).toContain(pid);
    expect(pid).not.toBe(Number(/me (\d+)/.exec(out.text)?.[1]));
    await proc.kill('agent', 'done', 'SIGKILL');
  });
});

describe('the host-user fallback (forced, as HANGBENCH_ISOLATION=host-user would)', () => {
  it('runs commands as the harness user on the host filesystem: the gap bubblewrap closes', async () => {
    sandbox = await makeSandbox('fallback', { capabilities: (caps) => ({ ...caps, isolation: 'host-user' }) });
    const { proc, out } = run(sandbox, `id -u; test -e ${PROJECT}/package.json && echo project-visible`);
    await proc.exited;
    expect(out.text).toBe(`${process.getuid?.() ?? ''}\nproject-visible\n`);
    const verifier = await sandbox.forVerify(hidden);
    expect(verifier).toBe(sandbox);
  });
});
