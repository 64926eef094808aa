import { renderTick } from '../../src/monitor/ticks/render.js';
import type { Template } from '../../src/types/template.js';
import type { AgentContext, AgentNoteKind, Observation, TokenUsage } from '../../src/agents/protocol.js';
import type { Case } from '../../src/types/case.js';
import type { Tick, TickOutput } from '../../src/types/process.js';

/** Hand-built observations and a recording reporter, for agent tests that run no sandbox. */

export const TEST_CASE = {
  id: 'py-pipe-deadlock',
  title: 'build hangs',
  kind: 'hang',
  fixture: 'fx',
  issue: '`python3 build.py` hangs forever.',
  repro: 'python3 build.py',
  terminal: 'pipe',
  budgets: { tokens: 60_000, wall: 90_000, interrupt: 45_000 },
  verify: [{ run: 'python3 build.py', timeout: 20_000, exit: 0 }],
  tags: [],
  gates: [],
  source: [],
  hints: [],
  hang: { class: 'pipe-write-block', onset: { output: 'compiling' } },
  file: '/cases/py-pipe-deadlock.yaml',
  fixtureDir: '/fixtures/py-pipe-deadlock',
} as const satisfies Case;

export function taskObservation(): Observation {
  return { type: 'task', issue: TEST_CASE.issue, repro: TEST_CASE.repro, files: ['build.py', 'README.md'] };
}

export function output(text: string, partialLine = false): TickOutput {
  return { text, bytes: Buffer.byteLength(text), cutBytes: 0, foldedLines: 0, partialLine };
}

export const NO_OUTPUT: TickOutput = output('');

/** A tick observation rendered as the session would: with the agent's tick template (the default one when absent). */
export function tick(seq: number, fields: Partial<Tick> = {}, template?: Template): Observation & { type: 'tick' } {
  const value: Tick = {
    commandId: 1,
    seq,
    elapsedMs: seq * 1000,
    sinceOutputMs: seq * 1000,
    totalOutputBytes: 80,
    output: NO_OUTPUT,
    snapshot: {
      source: 'proc',
      processes: [
        {
          pid: 100,
          ppid: 1,
          pgid: 100,
          sid: 100,
          command: 'python3',
          args: 'python3 build.py',
          state: 'S',
          wchan: 'do_wait',
          threadWchans: [],
          threads: 1,
          cpuPercent: 0,
          rssKb: 9000,
          readBytes: 0,
          writeBytes: 0,
          syscall: null,
          fds: { pipes: 1, sockets: 0, total: 4 },
          stdinIsHarnessPipe: true,
          children: [101],
        },
        {
          pid: 101,
          ppid: 100,
          pgid: 100,
          sid: 100,
          command: 'gzcc',
          args: 'python3 gzcc -v',
          state: 'S',
          wchan: 'pipe_write',
          threadWchans: [],
          threads: 1,
          cpuPercent: 0,
          rssKb: 8000,
          readBytes: 0,
          writeBytes: 65536,
          syscall: null,
          fds: { pipes: 1, sockets: 0, total: 4 },
          stdinIsHarnessPipe: false,
          children: [],
        },
      ],
    },
    classification: 'blocked-on-pipe',
    reason: 'gzcc is blocked writing to a full pipe',
    ...fields,
  };
  return { type: 'tick', tick: value, text: renderTick(value, template) };
}

export function result(
  action: 'read' | 'write' | 'edit' | 'run' | 'wait' | 'kill' | 'input',
  ok: boolean,
  message: string,
  content?: string,
): Observation {
  return { type: 'result', action, ok, message, ...(content === undefined ? {} : { content }) };
}

export function exitObservation(killed: boolean): Observation {
  return {
    type: 'exit',
    commandId: 1,
    exit: { exitCode: killed ? null : 0, signal: killed ? 'SIGINT' : null, durationMs: 3200 },
    output: 'compiling 12 units\n',
    kill: killed
      ? {
          by: 'agent',
          reason: 'kill action',
          mechanism: 'process-group+scan',
          treeSize: 2,
          steps: [{ signal: 'SIGINT', atMs: 0, alive: 2 }],
          escalatedToKill: false,
          goneMs: 12,
          survivors: [],
        }
      : null,
  };
}

export interface RecordedReport {
  readonly requests: Array<{ turn: number; messages: number }>;
  readonly responses: Array<{ turn: number; usage: TokenUsage; latencyMs: number }>;
  readonly notes: Array<{ kind: AgentNoteKind; message: string }>;
}

export function agentContext(overrides: Partial<AgentContext> = {}): AgentContext & { report: RecordedReport } {
  const report: RecordedReport = { requests: [], responses: [], notes: [] };
  return {
    testCase: TEST_CASE,
    signal: new AbortController().signal,
    repeat: 1,
    budgets: { tokens: 60_000, wallMs: 90_000, interruptMs: 45_000 },
    monitor: { mode: 'interval', everyMs: 10_000 },
    timeScale: 1,
    reporter: {
      request: (turn, messages) => report.requests.push({ turn, messages }),
      response: (turn, usage, latencyMs) => report.responses.push({ turn, usage, latencyMs }),
      note: (kind, message) => report.notes.push({ kind, message }),
    },
    ...overrides,
    report,
  };
}
