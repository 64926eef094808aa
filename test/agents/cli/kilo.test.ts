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
  runProbe,
} from '../../support/installed-cli.js';
import { lastChatToolOutput } from '../../support/scripted-model-server.js';

/**
 * The real Kilo Code CLI (an opencode fork, a native binary, from the agent cache) in the attempt's sandbox, through
 * the model proxy in chat completions.
 */

const cli = await installedCli('kilo');
/** kilo (a 170 MB Bun binary) took 16 s to its first request alone on a 2-core machine; more under load. */
const WALL_MS = 300_000;
const TEST_MS = WALL_MS + 60_000;

const out = resultsWithRealKey('kilo');

describe(`kilo in the sandbox (${cli.adapter.package}@${cli.adapter.version})`, () => {
  test(
    'hang: its bash tool ends the hung repro at the timeout the model gave; the fix made through bash is verified',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'kilo',
        caseFile: HANG_CASE,
        out: out(),
        runId: 'hang',
        wallMs: WALL_MS,
        steps: [
          () => ({ call: 'bash', args: { command: 'bash serve.sh', timeout: 2500, description: 'run the checks' } }),
          () => ({
            call: 'bash',
            args: { command: "printf 'go\\n' > mode.txt && bash serve.sh", description: 'fix and rerun' },
          }),
          () => ({ text: 'serve.sh no longer waits for a server.' }),
        ],
      });
      const { events, scores } = ran;
      const [first, second] = ofType(events, 'command.start').filter((one) => one.command.includes('serve.sh'));
      expect(first?.command).toBe('bash serve.sh');
      expect(ofType(events, 'onset')[0]?.commandId).toBe(first!.commandId);
      expect(ofType(events, 'kill').find((one) => one.commandId === first!.commandId)).toMatchObject({
        by: 'agent',
        steps: [{ signal: 'SIGTERM' }],
      });
      expect(lastChatToolOutput(ran.calls[1])).toMatch(/terminated command after exceeding timeout 2500 ms/);
      expect(lastChatToolOutput(ran.calls[2])).toContain('checks passed');
      expect(ofType(events, 'command.exit').find((exit) => exit.commandId === second?.commandId)?.exitCode).toBe(0);
      expect(ofType(events, 'agent.note').map((note) => note.message)).toContainEqual('kilo exited with code 0');
      expect(scores.scores).toMatchObject({ reproduced: true, interrupted: true, fixed: true, clean: true });
      expect(ofType(events, 'model.request').every((request) => request.api === 'chat' && request.stream)).toBe(true);
      expect(ran.calls.every((call) => call.authorization === `Bearer ${REAL_KEY}`)).toBe(true);
      expect(await recordedBodies(ran.dir, events)).not.toContain(REAL_KEY);
    },
    TEST_MS,
  );

  test(
    'control: it lets the slow program finish',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'kilo',
        caseFile: CONTROL_CASE,
        out: out(),
        runId: 'control',
        wallMs: WALL_MS,
        steps: [
          () => ({ call: 'bash', args: { command: 'bash slow.sh', description: 'run it' } }),
          () => ({ text: 'it completes.' }),
        ],
      });
      expect(lastChatToolOutput(ran.calls[1])).toContain('all steps done');
      expect(ran.scores.scores).toMatchObject({ completed: true, false_kill: false, clean: true });
    },
    TEST_MS,
  );

  test(
    'the probe model with a 5 s bash default (the setting): the tool ends the repro, the kill finds nothing left, kilo exits',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runProbe({
        name: 'kilo',
        caseFile: HANG_CASE,
        out: out(),
        runId: 'probe',
        settings: { bash_timeout_ms: '5000' },
      });
      expect(ofType(ran.events, 'attempt.start')[0]?.toolTimeouts).toEqual({ tool: 5000 });
      expect(ofType(ran.events, 'model.response').map((response) => response.probe?.step)).toEqual([
        'run',
        'interrupt',
        'finish',
      ]);
      expect(ofType(ran.events, 'tool.result')[0]?.text).toMatch(/terminated command after exceeding timeout 5000 ms/);
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual('kilo exited with code 0');
      expect(ran.scores.scores).toMatchObject({ tool_end: 'killed-tree', left_after_tool: 0, clean: true });
      expect(ran.scores.scores.tool_result).toMatchObject({ reason: 'timeout', elapsed_ms: 5000 });
    },
    TEST_MS,
  );
});
