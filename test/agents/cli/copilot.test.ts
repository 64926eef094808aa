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
 * The real GitHub Copilot CLI (a Node SEA binary, from the agent cache) in the attempt's sandbox, through the model
 * proxy in chat completions: its bash tool yields a hung command at 30 s with a shell id, read_bash waits on it and
 * stop_bash ends it.
 */

const cli = await installedCli('copilot');
/** Copilot unpacks 235 MB into the fresh HOME at its first start; seconds alone, longer on a loaded machine. */
const WALL_MS = 240_000;
const TEST_MS = WALL_MS + 60_000;
const STILL_RUNNING = /<command with shellId: (\w+) is still running after (\d+) seconds/;

const out = resultsWithRealKey('copilot');

const shellIdOf = (text: string): string => STILL_RUNNING.exec(text)?.[1] ?? 'none';

describe(`copilot in the sandbox (${cli.adapter.package}@${cli.adapter.version})`, () => {
  test(
    'hang: bash yields the hung repro at its 30 s default, read_bash waits on it, stop_bash ends it; the fix is verified',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'copilot',
        caseFile: HANG_CASE,
        out: out(),
        runId: 'hang',
        wallMs: WALL_MS,
        steps: [
          () => ({ call: 'bash', args: { command: 'bash serve.sh', description: 'run the checks' } }),
          (calls) => ({
            call: 'read_bash',
            args: { shellId: shellIdOf(lastChatToolOutput(calls.at(-1))), delay: 2 },
          }),
          (calls) => ({ call: 'stop_bash', args: { shellId: shellIdOf(lastChatToolOutput(calls.at(-2))) } }),
          () => ({
            call: 'bash',
            args: { command: "printf 'go\\n' > mode.txt && bash serve.sh", description: 'fix and rerun' },
          }),
          () => ({ text: 'serve.sh no longer waits for a server.' }),
        ],
      });
      const [yielded, polled, stopped, rerun] = [1, 2, 3, 4].map((n) => lastChatToolOutput(ran.calls[n]));
      expect(yielded).toMatch(STILL_RUNNING);
      expect(STILL_RUNNING.exec(yielded!)?.[2]).toBe('30');
      expect(yielded).toContain('waiting for the server');
      expect(STILL_RUNNING.exec(polled!)?.[2]).toBe('2');
      expect(stopped).toMatch(/^<command with id: \w+ stopped>$/);
      expect(rerun).toContain('checks passed');
      const [first, second] = ofType(ran.events, 'command.start').filter((one) => one.command.includes('serve.sh'));
      expect(first?.command).toBe('bash serve.sh');
      expect(ofType(ran.events, 'onset')[0]?.commandId).toBe(first!.commandId);
      expect(ofType(ran.events, 'kill').find((kill) => kill.commandId === first!.commandId)).toMatchObject({
        by: 'agent',
        steps: [{ signal: 'SIGTERM' }],
      });
      expect(ofType(ran.events, 'command.exit').find((exit) => exit.commandId === second?.commandId)?.exitCode).toBe(0);
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual('copilot exited with code 0');
      expect(ran.scores.scores).toMatchObject({
        reproduced: true,
        interrupted: true,
        fixed: true,
        clean: true,
        tool_end: 'returned-running',
      });
      expect(ofType(ran.events, 'model.request').every((request) => request.api === 'chat' && request.stream)).toBe(
        true,
      );
      expect(ran.calls.every((call) => call.authorization === `Bearer ${REAL_KEY}`)).toBe(true);
      expect(await recordedBodies(ran.dir, ran.events)).not.toContain(REAL_KEY);
    },
    TEST_MS,
  );

  test(
    'control: with initial_wait past its run, bash returns the slow program finished',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runInstalled({
        name: 'copilot',
        caseFile: CONTROL_CASE,
        out: out(),
        runId: 'control',
        wallMs: WALL_MS,
        steps: [
          () => ({ call: 'bash', args: { command: 'bash slow.sh', description: 'run it', initial_wait: 60 } }),
          () => ({ text: 'it completes.' }),
        ],
      });
      expect(lastChatToolOutput(ran.calls[1])).toContain('all steps done');
      expect(lastChatToolOutput(ran.calls[1])).not.toMatch(STILL_RUNNING);
      expect(ran.scores.scores).toMatchObject({ completed: true, false_kill: false, clean: true });
    },
    TEST_MS,
  );

  test(
    'the probe model: run, poll with read_bash on the shell id, stop_bash, finish; the CLI exits by itself',
    async (ctx) => {
      requireInstalledCli(ctx, cli);
      const ran = await runProbe({ name: 'copilot', caseFile: HANG_CASE, out: out(), runId: 'probe' });
      const steps = ofType(ran.events, 'model.response').map((response) => response.probe?.step);
      expect(steps[0]).toBe('run');
      expect(steps.slice(-2)).toEqual(['interrupt', 'finish']);
      expect(steps.slice(1, -2).every((step) => step === 'poll')).toBe(true);
      const results = ofType(ran.events, 'tool.result');
      expect(results.map((result) => result.tool)).toEqual([
        'bash',
        ...steps.slice(1, -2).map(() => 'read_bash'),
        'stop_bash',
      ]);
      const shellId = shellIdOf(results[0]!.text);
      expect(JSON.parse(results.at(-1)!.args)).toEqual({ shellId: Number(shellId) });
      const repro = ofType(ran.events, 'command.start').find((one) => one.command === 'bash serve.sh');
      expect(ofType(ran.events, 'kill').find((kill) => kill.commandId === repro?.commandId)).toMatchObject({
        by: 'agent',
      });
      expect(ofType(ran.events, 'agent.note').map((note) => note.message)).toContainEqual('copilot exited with code 0');
      expect(ran.scores.scores).toMatchObject({ tool_end: 'returned-running', clean: true });
      expect(ran.scores.scores.tool_result).toMatchObject({ reason: 'still running', elapsed_ms: 30_000 });
    },
    TEST_MS,
  );
});
