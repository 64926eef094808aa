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

/** The real Cline (cline, a native binary, from the agent cache) in the attempt's sandbox, driven by a scripted model through its own run_commands tool. */

const cli = await installedCli('cline');
/** Cline (a 150 MB Bun binary) takes minutes to its first request on a loaded 2-core machine. */
const WALL_MS = 420_000;
const TEST_MS = WALL_MS + 120_000;

const out = resultsWithRealKey('cline');

describe(`cline in the sandbox (${cli.adapter.package}@${cli.adapter.version})`, () => {
  test(
    'control: its run_commands tool runs the slow program to the end, the shim observes it, and the CLI exits',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'cline',
        caseFile: CONTROL_CASE,
        out: out(),
        runId: 'control',
        wallMs: WALL_MS,
        steps: [
          () => ({ call: 'run_commands', args: { commands: ['bash slow.sh'] } }),
          () => ({ text: 'it completes.' }),
        ],
      });
      const start = ofType(ran.events, 'command.start').find((one) => one.command.includes('bash slow.sh'));
      expect(start, 'the shim reported the command').toBeDefined();
      expect(ofType(ran.events, 'command.exit').find((exit) => exit.commandId === start!.commandId)?.exitCode).toBe(0);
      expect(lastChatToolOutput(ran.calls[1])).toContain('all steps done');
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual(
        expect.stringMatching(/^cline exited with code 0/),
      );
      expect(ofType(ran.events, 'attempt.end')).toHaveLength(1);
      expect(ran.scores.scores).toMatchObject({ completed: true, false_kill: false });
      expect(await recordedBodies(ran.dir, ran.events)).not.toContain(REAL_KEY);
    },
    TEST_MS,
  );

  test(
    'hang: its run_commands kills the hung repro at its own 30 s and reports the timeout',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'cline',
        caseFile: HANG_CASE,
        out: out(),
        runId: 'hang',
        wallMs: WALL_MS,
        steps: [
          () => ({ call: 'run_commands', args: { commands: ['bash serve.sh'] } }),
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
      expect(lastChatToolOutput(ran.calls[1])).toMatch(/timed out after 30000ms/i);
      // scored from the trace as the kill it was: cline sends the timeout at once, before the harness has taken the
      // exit of the shim it SIGKILLed (no report), and nothing of the repro was alive as the result went out
      expect(ran.scores.scores).toMatchObject({ tool_end: 'killed-tree', left_after_tool: 0 });
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual(
        expect.stringMatching(/^cline exited/),
      );
      expect(ofType(ran.events, 'attempt.end')).toHaveLength(1);
      // Not the onset: on a starved machine the tool's timeout can end serve.sh before its first line (measured: claude
      // and pi at 3 s, under a load average near 60); what is tested here is the CLI's tool and the attempt's end.
    },
    TEST_MS,
  );
});
