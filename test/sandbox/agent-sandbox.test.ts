import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { probeHost, startAgentSandbox, type EgressRecord } from '../../src/sandbox/index.js';
import { requireCapability } from '../support/capability.js';

const PROJECT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const caps = await probeHost();
const jailed = caps.isolation === 'bubblewrap';
/** Planted in the harness's environment; the agent is given only HANGBENCH_TEST_GIVEN. */
const PLANTED = 'hb-agent-planted-5c1d';
process.env.HANGBENCH_TEST_AGENT_KEY = PLANTED;
process.env.OPENAI_API_KEY = PLANTED;
process.env.HANGBENCH_TEST_GIVEN = 'given-value';

let world: Server;
let worldPort = 0;
beforeAll(async () => {
  // The "allowed host" of the test: a loopback server the proxy forwards to as 127.0.0.1.
  world = createServer((request, response) => response.end(`world saw ${request.method} ${request.url}\n`));
  await new Promise<void>((resolve) => world.listen(0, '127.0.0.1', resolve));
  const address = world.address();
  worldPort = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(() => {
  world.close();
});

/** What the agent's own process tries, from its own shell (not through `run`): disk, environment, processes, network. */
function searchScript(proxyPort: string): string {
  // Patterns written so that the script (in the agent's own environment and command line) and grep never match themselves.
  const planted = `"${PLANTED.slice(0, 6)}""${PLANTED.slice(6)}"`;
  const plain = (host: string): string =>
    `(exec 3<>/dev/tcp/127.0.0.1/${proxyPort} && printf 'GET http://${host}/probe HTTP/1.1\\r\\nHost: ${host}\\r\\nConnection: close\\r\\n\\r\\n' >&3 && cat <&3) 2>&1 | head -1`;
  return [
    `echo "project: $(ls ${PROJECT}/package.json 2>&1)"`,
    `echo "answers: $(find / -xdev \\( -name solution.patch -o -name hidden -o -name trace.jsonl -o -name 'py-pipe-deadlock.yaml' \\) 2>/dev/null | wc -l)"`,
    `echo "planted-env: $(env | grep -c ${planted})"`,
    `echo "planted-proc: $(cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c ${planted})"`,
    `echo "given: $HANGBENCH_TEST_GIVEN key: \${OPENAI_API_KEY:-none}"`,
    `echo "processes: $(ls /proc | grep -cE '^[0-9]+$')"`,
    `echo "harness-node: $(grep -lE "hangbench[.]js|vite[s]t" /proc/[0-9]*/cmdline 2>/dev/null | wc -l)"`,
    `echo "allowed: $(${plain(`127.0.0.1:${worldPort}`)})"`,
    `echo "other: $(${plain('example.com')})"`,
    `echo "direct: $( (exec 3<>/dev/tcp/127.0.0.1/${worldPort}) 2>&1 && echo connected)"`,
    `echo "outside: $( (exec 3<>/dev/tcp/1.1.1.1/80) 2>&1 && echo connected)"`,
  ].join('\n');
}

describe("the exec agent's own process, in a sandbox of its own", () => {
  beforeEach((ctx) => requireCapability(ctx, 'bubblewrap', jailed));
  it('finds no answer key, no hidden checks, no planted key, no harness process, and reaches only the allowed host through the proxy', async () => {
    const egress: EgressRecord[] = [];
    const sandbox = await startAgentSandbox({
      command: 'bash -c "$SEARCH"',
      cwd: PROJECT,
      env: { HANGBENCH_TEST_GIVEN: 'given-value' },
      allowHosts: ['127.0.0.1'],
      onEgress: (record) => egress.push(record),
      capabilities: caps,
    });
    const proxyPort = new URL(sandbox.proxyUrl).port;
    const [file, ...args] = sandbox.argv;
    const text = await new Promise<string>((resolve) => {
      execFile(
        file,
        args,
        { cwd: sandbox.cwd, env: { ...sandbox.env, SEARCH: searchScript(proxyPort) }, timeout: 30_000 },
        (_error, stdout, stderr) => resolve(stdout + stderr),
      );
    });
    await sandbox.stop();

    expect(text).toMatch(/project: .*No such file or directory/);
    expect(text).toContain('answers: 0');
    expect(text).toContain('planted-env: 0');
    expect(text).toContain('planted-proc: 0');
    expect(text).toContain('given: given-value key: none');
    expect(Number(/processes: (\d+)/.exec(text)?.[1])).toBeLessThan(12);
    expect(text).toContain('harness-node: 0');
    expect(text).toContain('allowed: HTTP/1.1 200 OK');
    expect(text).toContain('other: HTTP/1.1 403 Forbidden');
    expect(text).toMatch(/direct: .*Connection refused/);
    expect(text).toMatch(/outside: .*Network is unreachable/);
    expect(egress).toEqual([
      expect.objectContaining({ host: '127.0.0.1', port: worldPort, method: 'GET', status: 200, allowed: true }),
      expect.objectContaining({ host: 'example.com', port: 80, method: 'GET', status: 403, allowed: false, bytes: 0 }),
    ]);
    expect(egress[0]!.bytes).toBeGreaterThan(0);
  });
});

describe('this host', () => {
  it("jails the exec agent's process", (context) => {
    requireCapability(
      context,
      'bubblewrap',
      jailed,
      caps.notes.find((note) => note.startsWith('isolation ')) ?? 'isolation host-user',
    );
    expect(caps.isolation).toBe('bubblewrap');
  });
});
