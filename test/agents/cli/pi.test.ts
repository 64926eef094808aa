import { describe, expect, test } from 'vitest';
import {
  CONTROL_CASE,
  HANG_CASE,
  installedCli,
  ofType,
  REAL_KEY,
  recordedBodies,
  requireInstalledCli,
  resultsWithRealKey,
  runInstalled,
} from '../../support/installed-cli.js';
import { lastChatToolOutput } from '../../support/scripted-model-server.js';

/** The real pi (@mariozechner/pi-coding-agent, from the agent cache) in the attempt's sandbox, driven by a scripted model through its own bash tool. */

const cli = await installedCli('pi');
/** pi took 160 s to its first request at nice 10 on this 2-core machine under a load near 40. */
const WALL_MS = 420_000;
const TEST_MS = WALL_MS + 120_000;

const out = resultsWithRealKey('pi');

describe(`pi in the sandbox (${cli.adapter.package}@${cli.adapter.version})`, () => {
  test(
    'control: its bash tool runs the slow program to the end, the shim observes it, and the CLI exits',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'pi',
        caseFile: CONTROL_CASE,
        out: out(),
        runId: 'control',
        wallMs: WALL_MS,
        steps: [() => ({ call: 'bash', args: { command: 'bash slow.sh' } }), () => ({ text: 'it completes.' })],
      });
      const start = ofType(ran.events, 'command.start').find((one) => one.command.includes('bash slow.sh'));
      expect(start, 'the shim reported the command').toBeDefined();
      expect(ofType(ran.events, 'command.exit').find((exit) => exit.commandId === start!.commandId)?.exitCode).toBe(0);
      expect(lastChatToolOutput(ran.calls[1])).toContain('all steps done');
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual(
        expect.stringMatching(/^pi exited with code 0/),
      );
      expect(ofType(ran.events, 'attempt.end')).toHaveLength(1);
      expect(ran.scores.scores).toMatchObject({ completed: true, false_kill: false });
      expect(await recordedBodies(ran.dir, ran.events)).not.toContain(REAL_KEY);
    },
    TEST_MS,
  );

  test(
    'hang: its bash tool kills the hung repro at the timeout (seconds) the model gave',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'pi',
        caseFile: HANG_CASE,
        out: out(),
        runId: 'hang',
        wallMs: WALL_MS,
        steps: [
          () => ({ call: 'bash', args: { command: 'bash serve.sh', timeout: 3 } }),
          () => ({ text: 'serve.sh waits for a server that never comes.' }),
        ],
      });
      const start = ofType(ran.events, 'command.start').find((one) => one.command.includes('bash serve.sh'));
      expect(start, 'the shim reported the command').toBeDefined();
      expect(
        ofType(ran.events, 'command.exit').find((exit) => exit.commandId === start!.commandId),
        'the command ended',
      ).toBeDefined();
      const kills = ofType(ran.events, 'kill').filter((kill) => kill.commandId === start!.commandId);
      expect(kills.find((kill) => kill.by === 'agent')).toMatchObject({ by: 'agent' });
      expect(lastChatToolOutput(ran.calls[1])).toMatch(/timed out/i);
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual(
        expect.stringMatching(/^pi exited/),
      );
      expect(ofType(ran.events, 'attempt.end')).toHaveLength(1);
      // Not the onset: on a starved machine the tool's timeout can end serve.sh before its first line (measured: claude
      // and pi at 3 s, under a load average near 60); what is tested here is the CLI's tool and the attempt's end.
    },
    TEST_MS,
  );
});
