import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { runEval } from '../../../src/run/run-eval.js';
import { readTrace } from '../../../src/scorers/index.js';
import { probeHost } from '../../../src/sandbox/index.js';
import type { EventOf, TraceEvent } from '../../../src/types/events.js';
import { requireCapability } from '../../support/capability.js';
import { installedCli } from '../../support/installed-cli.js';
import {
  lastChatToolOutput,
  startScriptedModel,
  type ModelCall,
  type ModelStep,
} from '../../support/scripted-model-server.js';

/** The real opencode CLI in the attempt's sandbox, driven by a scripted model through its own tools (bash, read, edit). */

const REPO = path.resolve(import.meta.dirname, '../../..');
const HANG = path.join(REPO, 'test/fixtures/installed/sleep-forever.yaml');
const CONTROL = path.join(REPO, 'test/fixtures/installed/slow-ok.yaml');
/** opencode (a 100 MB Bun binary) takes 5–60 s to boot at nice 10 on a loaded 2-core machine: the attempt's wall budget allows it. */
const WALL_MS = 240_000;
const TEST_MS = WALL_MS + 60_000;
const REAL_KEY = 'sk-real-key-the-agent-must-never-see';
const capabilities = await probeHost();
const opencode = await installedCli('opencode');

let out: string;
const saved = process.env.OPENAI_API_KEY;
beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'hangbench-opencode-'));
  process.env.OPENAI_API_KEY = REAL_KEY;
});
afterAll(async () => {
  if (saved === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved;
  if (!process.env.HB_KEEP) await rm(out, { recursive: true, force: true });
});

/** opencode names a session with a side call to the model; it is answered outside the script. */
const titleCall = (call: ModelCall): { text: string } | null => {
  const first = (call.body.messages as Array<{ content?: unknown }> | undefined)?.[0]?.content;
  return typeof first === 'string' && first.startsWith('You are a title generator')
    ? { text: 'hangbench attempt' }
    : null;
};
const workdir = (calls: readonly ModelCall[]): string =>
  /Working directory: (\S+?)(\\n|\n|<)/.exec(JSON.stringify(calls[0]?.body.messages ?? ''))?.[1] ?? '.';

async function run(runId: string, caseFile: string, steps: readonly ModelStep[]) {
  const model = await startScriptedModel(steps, { aside: titleCall });
  try {
    const result = await runEval({
      caseInputs: [caseFile],
      agent: 'cli:opencode',
      model: 'scripted',
      baseUrl: model.url,
      mode: 'none',
      intervalMs: 500,
      timeScale: 1,
      verifyFloorMs: 2000,
      concurrency: 1,
      out,
      runId,
      cwd: REPO,
      budgets: { wallMs: WALL_MS },
    });
    const scores = result.summary.attempts[0]!;
    const dir = path.join(result.runDir, scores.caseId, scores.variant, String(scores.repeat));
    return { scores, events: await readTrace(path.join(dir, 'trace.jsonl')), dir, model };
  } finally {
    await model.close();
  }
}

const ofType = <K extends TraceEvent['type']>(events: readonly TraceEvent[], type: K): EventOf<K>[] =>
  events.filter((event): event is EventOf<K> => event.type === type);

describe('opencode in the sandbox', () => {
  beforeEach((ctx) => {
    requireCapability(
      ctx,
      'bubblewrap',
      capabilities.isolation === 'bubblewrap',
      'installed agents run in the bubblewrap jail',
    );
    requireCapability(ctx, 'installed agent CLI', opencode.present, `${opencode.spec} at ${opencode.bin}`);
  });

  test(
    'hang: its bash tool ends the hung repro at the timeout the model gave; the fix made with its edit tool is verified',
    async () => {
      const ran = await run('hang', HANG, [
        () => ({ call: 'bash', args: { command: 'bash serve.sh', timeout: 2500, description: 'run the checks' } }),
        (calls) => ({ call: 'read', args: { filePath: `${workdir(calls)}/mode.txt` } }),
        (calls) => ({
          call: 'edit',
          args: { filePath: `${workdir(calls)}/mode.txt`, oldString: 'wait', newString: 'go' },
        }),
        () => ({ call: 'bash', args: { command: 'bash serve.sh', description: 'run the checks again' } }),
        () => ({ text: 'serve.sh no longer waits for a server.' }),
      ]);
      const { events, scores } = ran;
      const [first, second] = ofType(events, 'command.start');
      expect(first?.command).toBe('bash serve.sh');
      expect(ofType(events, 'onset')[0]?.commandId).toBe(first!.commandId);
      expect(
        ofType(events, 'tick')
          .filter((tick) => tick.commandId === first!.commandId)
          .map((tick) => tick.classification),
      ).toContain('sleeping');
      const kill = ofType(events, 'kill').find((one) => one.commandId === first!.commandId);
      expect(kill).toMatchObject({ by: 'agent' });
      expect(lastChatToolOutput(ran.model.calls[1])).toMatch(/timeout|terminated|timed out/i);
      expect(ofType(events, 'command.exit').find((exit) => exit.commandId === second?.commandId)?.exitCode).toBe(0);
      expect(scores.scores).toMatchObject({ reproduced: true, interrupted: true, fixed: true, clean: true });
      const bodies = await Promise.all(
        ofType(events, 'model.request').map((request) => readFile(path.join(ran.dir, request.bodyFile), 'utf8')),
      );
      expect(bodies.join('\n')).not.toContain(REAL_KEY);
      expect(ofType(events, 'model.request').every((request) => request.api === 'chat' && request.stream)).toBe(true);
    },
    TEST_MS,
  );

  test(
    'control: it lets the slow program finish',
    async () => {
      const ran = await run('control', CONTROL, [
        () => ({ call: 'bash', args: { command: 'bash slow.sh', description: 'run it' } }),
        () => ({ text: 'it completes.' }),
      ]);
      expect(lastChatToolOutput(ran.model.calls[1])).toContain('all steps done');
      expect(ran.scores.scores).toMatchObject({ completed: true, false_kill: false, clean: true });
    },
    TEST_MS,
  );
});
