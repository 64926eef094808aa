import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { runEval } from '../../../src/run/run-eval.js';
import { readTrace } from '../../../src/scorers/index.js';
import { probeHost } from '../../../src/sandbox/index.js';
import type { EventOf, TraceEvent } from '../../../src/types/events.js';
import { requireCapability } from '../../support/capability.js';
import { startScriptedModel } from '../../support/scripted-model-server.js';

/** `--agent cli:generic --cmd '… {issue_file}'`: any program, pointed at the proxy by HANGBENCH_BASE_URL, observed through the shim. */

const REPO = path.resolve(import.meta.dirname, '../../..');
const CONTROL = path.join(REPO, 'test/fixtures/installed/slow-ok.yaml');
const capabilities = await probeHost();

// A tiny agent: asks the model (chat completions, not streamed) with the issue, then runs the command it names with bash -c.
const AGENT = [
  "const fs = require('node:fs'); const { execFileSync } = require('node:child_process');",
  "const issue = fs.readFileSync(process.argv[1], 'utf8');",
  "fetch(process.env.HANGBENCH_BASE_URL + '/chat/completions', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.HANGBENCH_PROXY_AUTH, 'content-type': 'application/json' },",
  "  body: JSON.stringify({ model: process.env.HANGBENCH_MODEL, messages: [{ role: 'user', content: issue }] }) })",
  "  .then((response) => response.json()).then((answer) => execFileSync('/bin/bash', ['-c', answer.choices[0].message.content], { stdio: 'inherit' }));",
]
  .join(' ')
  .replaceAll("'", '"');

let out: string;
beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'hangbench-generic-'));
});
afterAll(async () => {
  if (!process.env.HB_KEEP) await rm(out, { recursive: true, force: true });
});

const ofType = <K extends TraceEvent['type']>(events: readonly TraceEvent[], type: K): EventOf<K>[] =>
  events.filter((event): event is EventOf<K> => event.type === type);

describe('the generic adapter', () => {
  beforeEach((ctx) =>
    requireCapability(
      ctx,
      'bubblewrap',
      capabilities.isolation === 'bubblewrap',
      'installed agents run in the bubblewrap jail',
    ),
  );

  test('runs --cmd with {issue_file}; its model call goes through the proxy, its bash -c is observed and completes the control', async () => {
    const model = await startScriptedModel([() => ({ text: 'bash slow.sh' })]);
    try {
      const result = await runEval({
        caseInputs: [CONTROL],
        agent: 'cli:generic',
        cmd: `node -e '${AGENT}' {issue_file}`,
        model: 'scripted',
        baseUrl: model.url,
        mode: 'none',
        intervalMs: 500,
        concurrency: 1,
        out,
        runId: 'generic',
        cwd: REPO,
      });
      const scores = result.summary.attempts[0]!;
      const events = await readTrace(path.join(result.runDir, scores.caseId, scores.variant, '1', 'trace.jsonl'));
      expect(model.calls[0]?.body.messages).toEqual([
        { role: 'user', content: expect.stringContaining('check that it completes') },
      ]);
      expect(ofType(events, 'model.request')[0]).toMatchObject({ api: 'chat', stream: false, model: 'scripted' });
      expect(ofType(events, 'command.start').map((start) => start.command)).toEqual(['bash slow.sh']);
      expect(scores.scores).toMatchObject({ completed: true, false_kill: false, clean: true });
      expect(
        await readFile(path.join(result.runDir, scores.caseId, scores.variant, '1', 'agent.log'), 'utf8'),
      ).toContain('all steps done');
    } finally {
      await model.close();
    }
  });
});
