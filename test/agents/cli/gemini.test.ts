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
import { lastGeminiFunctionResponse, type ModelCall, type ModelReply } from '../../support/scripted-model-server.js';

/** The real Gemini CLI (@google/gemini-cli, from the agent cache) in the attempt's sandbox, driven by a scripted model through its own run_shell_command tool. */

const cli = await installedCli('gemini');
/** Gemini CLI relaunches itself with a larger heap; on a loaded 2-core machine it takes minutes to its first request. */
const WALL_MS = 420_000;
const TEST_MS = WALL_MS + 120_000;

/** Side calls to another model (its router, a next-speaker check) are answered outside the script. */
const aside = (call: ModelCall): ModelReply | null => (call.path.includes('/models/scripted:') ? null : { text: '{}' });

const out = resultsWithRealKey('gemini');

describe(`gemini in the sandbox (${cli.adapter.package}@${cli.adapter.version})`, () => {
  test(
    'control: its run_shell_command tool runs the slow program to the end, the shim observes it, and the CLI exits',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'gemini',
        caseFile: CONTROL_CASE,
        out: out(),
        runId: 'control',
        wallMs: WALL_MS,
        aside,
        steps: [
          () => ({ call: 'run_shell_command', args: { command: 'bash slow.sh', description: 'run it' } }),
          () => ({ text: 'it completes.' }),
        ],
      });
      const start = ofType(ran.events, 'command.start').find((one) => one.command.includes('bash slow.sh'));
      expect(start, 'the shim reported the command').toBeDefined();
      expect(ofType(ran.events, 'command.exit').find((exit) => exit.commandId === start!.commandId)?.exitCode).toBe(0);
      expect(lastGeminiFunctionResponse(ran.calls[1])).toContain('all steps done');
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual(
        expect.stringMatching(/^gemini exited with code 0/),
      );
      expect(ofType(ran.events, 'attempt.end')).toHaveLength(1);
      expect(ran.scores.scores).toMatchObject({ completed: true, false_kill: false });
      expect(await recordedBodies(ran.dir, ran.events)).not.toContain(REAL_KEY);
    },
    TEST_MS,
  );

  test(
    'hang: at an inactivity timeout of 3 s its run_shell_command cancels the hung repro and says so',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'gemini',
        caseFile: HANG_CASE,
        out: out(),
        runId: 'hang',
        wallMs: WALL_MS,
        settings: { inactivity_timeout_s: '3' },
        aside,
        steps: [
          () => ({ call: 'run_shell_command', args: { command: 'bash serve.sh', description: 'run the checks' } }),
          () => ({ text: 'serve.sh waits for a server that never comes.' }),
        ],
      });
      const start = ofType(ran.events, 'command.start').find((one) => one.command.includes('bash serve.sh'));
      expect(start, 'the shim reported the command').toBeDefined();
      expect(
        ofType(ran.events, 'command.exit').find((exit) => exit.commandId === start!.commandId),
        'the command ended',
      ).toBeDefined();
      // the CLI's own tool ended it (a harness record of leftovers may sit beside it)
      expect(
        ofType(ran.events, 'kill').find((kill) => kill.commandId === start!.commandId && kill.by === 'agent'),
      ).toMatchObject({ by: 'agent' });
      expect(lastGeminiFunctionResponse(ran.calls[1])).toMatch(/cancelled|timeout/i);
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual(
        expect.stringMatching(/^gemini exited/),
      );
      expect(ofType(ran.events, 'attempt.end')).toHaveLength(1);
      // Not the onset: on a starved machine the tool's timeout can end serve.sh before its first line (measured: claude
      // and pi at 3 s, under a load average near 60); what is tested here is the CLI's tool and the attempt's end.
    },
    TEST_MS,
  );
});
