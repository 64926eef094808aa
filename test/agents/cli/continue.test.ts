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

/**
 * The real Continue CLI (`cn`, JavaScript run by the machine's node, from the agent cache) in the attempt's sandbox,
 * through the model proxy in chat completions. Its Bash tool's timer counts time without output.
 */

const cli = await installedCli('continue');
const WALL_MS = 180_000;
const TEST_MS = WALL_MS + 60_000;

const out = resultsWithRealKey('continue');

describe(`continue in the sandbox (${cli.adapter.package}@${cli.adapter.version})`, () => {
  test(
    'hang: Bash returns at the timeout the model gave with the command still running (its SIGTERM reached only the shell it spawned); a kill through Bash ends it and the fix is verified',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'continue',
        caseFile: HANG_CASE,
        out: out(),
        runId: 'hang',
        wallMs: WALL_MS,
        steps: [
          () => ({ call: 'Bash', args: { command: 'bash serve.sh', timeout: 3 } }),
          // serve.sh's shell and its sleep, in one kill (the CLI's argv holds the issue, so patterns are anchored)
          () => ({
            call: 'Bash',
            args: {
              command: "kill -TERM $(pgrep -f '^sleep 100000$') $(pgrep -f '^/usr/bin/bash serve\\.sh$') && echo ended",
            },
          }),
          () => ({ call: 'Bash', args: { command: "printf 'go\\n' > mode.txt && bash serve.sh" } }),
          () => ({ text: 'serve.sh no longer waits for a server.' }),
        ],
      });
      const { events, scores } = ran;
      expect(lastChatToolOutput(ran.calls[1])).toMatch(
        /waiting for the server to come up\n+\[Command timed out after 3 seconds of no output\]$/,
      );
      expect(lastChatToolOutput(ran.calls[2])).toBe('ended\n');
      expect(lastChatToolOutput(ran.calls[3])).toContain('checks passed');
      const [first, second] = ofType(events, 'command.start').filter((one) => one.command.includes('serve.sh'));
      expect(first?.command).toBe('bash serve.sh');
      expect(ofType(events, 'onset')[0]?.commandId).toBe(first!.commandId);
      const atResult = ofType(events, 'command.tree').find((tree) => tree.commandId === first!.commandId);
      expect(atResult).toMatchObject({ at: 'model.request', request: 2 });
      expect(atResult!.alive.map((one) => one.command)).toContain('sleep 100000');
      expect(ofType(events, 'kill').find((kill) => kill.commandId === first!.commandId)).toMatchObject({
        by: 'agent',
      });
      expect(ofType(events, 'command.exit').find((exit) => exit.commandId === second?.commandId)?.exitCode).toBe(0);
      expect(ofType(events, 'agent.note').map((note) => note.message)).toContainEqual('continue exited with code 0');
      expect(scores.scores).toMatchObject({ reproduced: true, interrupted: true, fixed: true, clean: true });
      expect(scores.scores.tool_result).toMatchObject({ reason: 'timeout', elapsed_ms: 3000 });
      expect(ofType(events, 'model.request').every((request) => request.api === 'chat' && request.stream)).toBe(true);
      expect(ran.calls.every((call) => call.authorization === `Bearer ${REAL_KEY}`)).toBe(true);
      expect(await recordedBodies(ran.dir, events)).not.toContain(REAL_KEY);
    },
    TEST_MS,
  );

  test(
    'control: the timer restarts at each output line, so a command that prints every second outlasts a 3 s timeout; the slow program finishes',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'continue',
        caseFile: CONTROL_CASE,
        out: out(),
        runId: 'control',
        wallMs: WALL_MS,
        steps: [
          () => ({
            call: 'Bash',
            args: { command: 'for i in 1 2 3 4 5 6; do echo tick $i; sleep 1; done', timeout: 3 },
          }),
          () => ({ call: 'Bash', args: { command: 'bash slow.sh' } }),
          () => ({ text: 'it completes.' }),
        ],
      });
      expect(lastChatToolOutput(ran.calls[1])).toMatch(/tick 6\n$/);
      expect(lastChatToolOutput(ran.calls[1])).not.toContain('timed out');
      expect(lastChatToolOutput(ran.calls[2])).toContain('all steps done');
      expect(ran.scores.scores).toMatchObject({ completed: true, false_kill: false, clean: true });
    },
    TEST_MS,
  );
});
