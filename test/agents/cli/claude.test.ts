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
import { lastMessagesToolResult, type ModelCall, type ModelReply } from '../../support/scripted-model-server.js';

/** The real Claude Code (@anthropic-ai/claude-code, a native binary, from the agent cache) in the attempt's sandbox, driven by a scripted model through its own Bash tool. */

const cli = await installedCli('claude');
/** Claude Code (a 400 MB Bun binary) took 110–290 s to its first request at nice 10 on this 2-core machine under a load near 40. */
const WALL_MS = 420_000;
const TEST_MS = WALL_MS + 120_000;

/** Calls without tools (a title or a summary with a small model) are answered outside the script. */
const aside = (call: ModelCall): ModelReply | null =>
  Array.isArray(call.body.tools) && call.body.tools.length > 0 ? null : { text: 'hangbench attempt' };

const out = resultsWithRealKey('claude');

describe(`claude in the sandbox (${cli.adapter.package}@${cli.adapter.version})`, () => {
  test(
    'control: its Bash tool runs the slow program to the end, the shim observes it, and the CLI exits',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'claude',
        caseFile: CONTROL_CASE,
        out: out(),
        runId: 'control',
        wallMs: WALL_MS,
        aside,
        steps: [
          () => ({ call: 'Bash', args: { command: 'bash slow.sh', description: 'run it' } }),
          () => ({ text: 'it completes.' }),
        ],
      });
      const start = ofType(ran.events, 'command.start').find((one) => one.command.includes('bash slow.sh'));
      expect(start, 'the shim reported the command').toBeDefined();
      expect(ofType(ran.events, 'command.exit').find((exit) => exit.commandId === start!.commandId)?.exitCode).toBe(0);
      expect(lastMessagesToolResult(ran.calls[1])).toContain('all steps done');
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual(
        expect.stringMatching(/^claude exited with code 0/),
      );
      expect(ofType(ran.events, 'attempt.end')).toHaveLength(1);
      expect(ran.scores.scores).toMatchObject({ completed: true, false_kill: false });
      expect(await recordedBodies(ran.dir, ran.events)).not.toContain(REAL_KEY);
    },
    TEST_MS,
  );

  test(
    'hang: with background tasks off, its Bash tool kills the hung repro at the timeout the model gave (exit 143) and -p exits',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'claude',
        caseFile: HANG_CASE,
        out: out(),
        runId: 'hang',
        wallMs: WALL_MS,
        settings: { disable_background_tasks: '1' },
        aside,
        steps: [
          () => ({ call: 'Bash', args: { command: 'bash serve.sh', timeout: 3000, description: 'run the checks' } }),
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
      expect(lastMessagesToolResult(ran.calls[1])).toMatch(/143|timed out|timeout/i);
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual(
        expect.stringMatching(/^claude exited/),
      );
      expect(ofType(ran.events, 'attempt.end')).toHaveLength(1);
      // Not the onset: on a starved machine the tool's timeout can end serve.sh before its first line (measured: claude
      // and pi at 3 s, under a load average near 60); what is tested here is the CLI's tool and the attempt's end.
    },
    TEST_MS,
  );
});
