import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runEval } from '../../src/run/run-eval.js';
import { probeHost } from '../../src/sandbox/index.js';
import { readTrace } from '../../src/scorers/index.js';
import type { EventOf } from '../../src/types/events.js';
import { requireCapability } from '../support/capability.js';
import { REPO } from './scripted-model.js';

const PID_KILL_AGENT = path.join(import.meta.dirname, 'fixtures/pid-kill-agent.mjs');
const CASE = path.join(REPO, 'cases/bash-tail-follow.yaml');
const capabilities = await probeHost();

/** docs/agent-protocol.md, "Which pid to use": `pid` is the host's, `innerPid` the one a `run` command can signal. */
describe('--agent exec: the pid a tick names works inside the sandbox', () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'hangbench-exec-pids-'));
  });
  afterAll(() => rm(out, { recursive: true, force: true }));

  test("the agent's own `kill -TERM <innerPid ?? pid>` ends the process the tick named; the host pid names nothing there", async (ctx) => {
    requireCapability(
      ctx,
      'bubblewrap',
      capabilities.isolation === 'bubblewrap',
      'the pids differ only in its PID namespace',
    );
    const result = await runEval({
      caseInputs: [CASE],
      agent: 'exec',
      cmd: `exec node ${PID_KILL_AGENT}`,
      timeScale: 0.1,
      concurrency: 1,
      out,
      runId: 'exec-pids',
      cwd: REPO,
    });
    const attempt = result.summary.attempts[0]!;
    expect(attempt.outcome).toBe('completed');
    const events = await readTrace(path.join(result.runDir, 'bash-tail-follow', attempt.variant, '1', 'trace.jsonl'));
    const finish = events.find(
      (event): event is EventOf<'action'> => event.type === 'action' && event.action.type === 'finish',
    );
    const seen = JSON.parse(finish?.action.type === 'finish' ? finish.action.summary : '{}') as {
      unexpected?: string;
      target: { pid: number; innerPid: number | null; usable: number };
      exit: { exitCode: number | null; signal: string | null; kill: unknown };
    };
    expect(seen.unexpected).toBeUndefined();

    // The agent was sent what the trace records: tail's host pid and, beside it, its pid inside the sandbox.
    const tailInTrace = events
      .filter((event): event is EventOf<'tick'> => event.type === 'tick' && event.commandId === 1)
      .flatMap((event) => event.snapshot.processes)
      .find((process) => process.pid === seen.target.pid && process.command === 'tail');
    expect(tailInTrace?.innerPid).toBe(seen.target.innerPid);
    expect(seen.target.innerPid).not.toBeNull();
    expect(seen.target.innerPid).not.toBe(seen.target.pid);

    const exits = new Map(
      events
        .filter((event): event is EventOf<'command.exit'> => event.type === 'command.exit')
        .map((event) => [event.commandId, event]),
    );
    const starts = events.filter((event): event is EventOf<'command.start'> => event.type === 'command.start');
    expect(starts.map((event) => event.command)).toEqual([
      'bash scripts/deploy-report.sh',
      `kill -0 ${seen.target.pid}`,
      `kill -TERM ${seen.target.innerPid}`,
    ]);
    // `kill -0 <host pid>` inside: no such process. `kill -TERM <innerPid>`: sent.
    expect(exits.get(2)?.exitCode).not.toBe(0);
    expect(exits.get(3)?.exitCode).toBe(0);
    // tail is gone: the repro ended by itself (bash reports its last command's SIGTERM as 143) before the finish,
    // with no kill by the agent's `kill` action or the harness.
    expect(exits.get(1)).toMatchObject({ exitCode: 143, killed: false });
    expect(exits.get(1)!.seq).toBeLessThan(finish!.seq);
    expect(events.filter((event) => event.type === 'kill' && event.commandId === 1)).toEqual([]);
    expect(seen.exit).toMatchObject({ exitCode: 143, kill: null });
    expect(attempt.scores.clean).toBe(true);
  });
});
