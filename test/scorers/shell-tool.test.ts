import { describe, expect, it } from 'vitest';
import { hangTax } from '../../src/scorers/hang-tax.js';
import { shellTool } from '../../src/scorers/shell-tool.js';
import { describeToolResult, statedElapsedMs } from '../../src/scorers/tool-result-text.js';
import { summarizeShellTools } from '../../src/summary/shell-tools.js';
import { scoreAttempt } from '../../src/scorers/index.js';
import { TraceBuilder } from './trace-builder.js';

const REPRO = 'bash serve.sh';
const tree = (commandId: number, at: 'model.request' | 'agent.exit', alive: number, request?: number) => ({
  type: 'command.tree',
  commandId,
  at,
  ...(request === undefined ? {} : { request }),
  alive: Array.from({ length: alive }, (_, index) => ({ pid: 100 + index, command: 'sleep 100000' })),
});
const result = (request: number, text: string, args = JSON.stringify({ cmd: REPRO, yield_time_ms: 10000 })) => ({
  type: 'tool.result',
  request,
  callId: `call_${request}`,
  tool: 'exec_command',
  args,
  text,
  bytes: text.length,
});
const modelCall = (request: number) => ({
  type: 'model.request',
  request,
  api: 'responses',
  path: '/v1/responses',
  model: 'm',
  stream: true,
  bytes: 10,
  bodyFile: `model/${request}.request.json`,
});
const usage = (tokens: number) => ({ promptTokens: tokens, completionTokens: 0, cachedTokens: 0 });
const modelAnswer = (request: number, tokens: number) => ({
  type: 'model.response',
  request,
  status: 200,
  usage: usage(tokens),
  tokensFrom: 'usage',
  bytes: 10,
  latencyMs: 5,
  bodyFile: `model/${request}.response.txt`,
});

/**
 * A codex-like attempt: the repro starts at 1 s, hangs at 1.5 s, the tool yields with it running at 11 s, codex exits at 20 s killing it
 * (each unplaced event 10 ms after the last). */
function yielded() {
  return new TraceBuilder({ agent: 'cli', variant: 'cli-codex·none' })
    .at(900)
    .event(modelAnswer(1, 1000))
    .at(1000)
    .command(1, { command: REPRO })
    .at(1500)
    .onset(1)
    .at(2000)
    .tick(1, 'sleeping', 1)
    .at(11_000)
    .event(modelCall(2))
    .event(
      result(
        2,
        'Chunk ID: 1\nWall time: 10.0 seconds\nProcess running with session ID 3\nOutput:\nwaiting for the server to come up\n',
      ),
    )
    .event(tree(1, 'model.request', 2, 2))
    .at(12_000)
    .event(modelAnswer(2, 1500))
    .at(20_000)
    .kill(1, 'agent')
    .exit(1, { exitCode: null, killed: true })
    .event(tree(1, 'agent.exit', 0))
    .end();
}

describe('shell-tool scores', () => {
  it('a tool that yields with the repro running: when it came back, that it was running, what was alive, what it said', () => {
    const events = yielded().build();
    const score = shellTool(events);
    expect(score).toMatchObject({
      tool_return_ms: 10_010,
      tool_end: 'returned-running',
      left_after_tool: 2,
      left_after_exit: 0,
    });
    expect(score.tool_result).toMatchObject({ elapsed_ms: 10_000, reason: 'still running' });
    expect(score.tool_result?.text).toContain('Process running with session ID 3');
  });

  it('a tool that killed only the leader, one that ended the whole tree, and one that never came back', () => {
    const killed = (alive: number) =>
      new TraceBuilder({ agent: 'cli' })
        .at(1000)
        .command(1, { command: REPRO })
        .at(1500)
        .onset(1)
        .at(120_000)
        .kill(1, 'agent')
        .exit(1, { exitCode: null, killed: true })
        .event(modelCall(2))
        .event(result(2, 'Command terminated after exceeding timeout 120000 ms', JSON.stringify({ command: REPRO })))
        .event(tree(1, 'model.request', alive, 2))
        .end()
        .build();
    expect(shellTool(killed(2))).toMatchObject({
      tool_end: 'killed-leader',
      left_after_tool: 2,
      tool_return_ms: 119_030,
    });
    expect(shellTool(killed(0))).toMatchObject({ tool_end: 'killed-tree', left_after_tool: 0 });
    expect(shellTool(killed(0)).tool_result).toMatchObject({
      elapsed_ms: 120_000,
      reason: 'timeout',
      held_output: null,
    });
    // cline: its tool SIGKILLs the shim at 30 s and sends the next request at once; the harness takes the shim's exit
    // when it has seen its pid gone for a while, after the result. Nothing was alive as the result went out: a kill.
    const reportedLate = new TraceBuilder({ agent: 'cli' })
      .at(1000)
      .command(1, { command: REPRO })
      .at(1500)
      .onset(1)
      .at(31_050)
      .event(modelCall(2))
      .event(result(2, 'Command timed out after 30000ms', JSON.stringify({ commands: [REPRO] })))
      .event(tree(1, 'model.request', 0, 2))
      .at(31_400)
      .kill(1, 'agent')
      .exit(1, { exitCode: null, killed: true })
      .end()
      .build();
    expect(shellTool(reportedLate)).toMatchObject({
      tool_end: 'killed-tree',
      left_after_tool: 0,
      tool_return_ms: 30_060,
    });
    // the same order with the repro still alive as the result went out is a tool that returned with it running
    const running = reportedLate.map((event) =>
      event.type === 'command.tree' ? { ...event, alive: [{ pid: 100, command: 'sleep 100000' }] } : event,
    );
    expect(shellTool(running)).toMatchObject({ tool_end: 'returned-running', left_after_tool: 1 });
    const never = new TraceBuilder({ agent: 'cli' })
      .at(1000)
      .command(1, { command: REPRO })
      .at(1500)
      .onset(1)
      .at(60_000)
      .limit('wall', 60_000, 60_000)
      .kill(1, 'budget')
      .exit(1, { killed: true })
      .end()
      .build();
    expect(shellTool(never)).toMatchObject({
      tool_end: 'never-returned',
      tool_return_ms: null,
      left_after_tool: null,
      left_after_exit: null,
    });
  });

  it("never returned only when the repro outlived the tool's own deadline; else the budget ended it first", () => {
    const cut = (toolTimeouts: Record<string, number> | undefined, budgetAt: number) =>
      new TraceBuilder({ agent: 'cli:opencode', ...(toolTimeouts ? { toolTimeouts } : {}) })
        .at(1000)
        .command(1, { command: REPRO })
        .at(1500)
        .onset(1)
        .at(budgetAt)
        .limit('wall', budgetAt, budgetAt)
        .kill(1, 'budget')
        .exit(1, { killed: true })
        .end()
        .build();
    // a 90 s budget against opencode's 2 min: the repro ran 89 s, so its tool could not have returned yet
    expect(shellTool(cut({ tool: 120_000 }, 90_000))).toMatchObject({
      tool_end: 'budget-first',
      tool_timeout_ms: 120_000,
    });
    // the probe's budget (3 min): the deadline passed and nothing came back
    expect(shellTool(cut({ tool: 120_000 }, 180_000))).toMatchObject({ tool_end: 'never-returned' });
    // the longest deadline counts (gemini's idle timer), and a tool with none (pi) never returns whatever the budget
    expect(shellTool(cut({ idle: 300_000, tool: 10_000 }, 180_000)).tool_end).toBe('budget-first');
    expect(shellTool(cut({}, 90_000))).toMatchObject({ tool_end: 'never-returned', tool_timeout_ms: null });
    // a trace from before adapters declared deadlines
    expect(shellTool(cut(undefined, 90_000)).tool_end).toBe('never-returned');
  });

  it('is null for agents that are not installed CLIs', () => {
    expect(shellTool(new TraceBuilder().command(1).onset(1).end().build())).toMatchObject({
      tool_end: null,
      tool_return_ms: null,
      tool_result: null,
    });
  });

  it('reads a tool result: output held, the elapsed time stated, the reason given', () => {
    expect(
      statedElapsedMs(
        'Command was automatically cancelled because it exceeded the timeout of 0.2 minutes without output.',
      ),
    ).toBe(12_000);
    expect(statedElapsedMs('Command timed out after 120000ms before it could complete.')).toBe(120_000);
    expect(describeToolResult('Output: compiling unit 3\nExit Code: 0', 'compiling unit 3\n')).toMatchObject({
      held_output: true,
      reason: 'exit code',
    });
    expect(describeToolResult('no output', 'compiling unit 3\n').held_output).toBe(false);
  });
});

describe('hang tax', () => {
  it('wall time and model tokens from the onset to the end of the hang (the exit of the command that hung)', () => {
    expect(hangTax(yielded().build())).toEqual({ hang_tax_ms: 18_510, hang_tax_tokens: 1500 });
  });

  it('for any agent: its own responses count; without an exit the hang lasts to the attempt end; null without an onset', () => {
    const open = new TraceBuilder().command(1).at(1000).onset(1).at(2000).response(300, 20).at(9000).end().build();
    expect(hangTax(open)).toEqual({ hang_tax_ms: 8000, hang_tax_tokens: 320 });
    expect(hangTax(new TraceBuilder().command(1).end().build())).toEqual({ hang_tax_ms: null, hang_tax_tokens: null });
  });
});

describe('summary.json shellTools', () => {
  it('sums per CLI variant × hang class, modes of one CLI side by side, keeping a tool result', () => {
    const none = { ...scoreAttempt(yielded().build()), mode: 'none' };
    const inband = { ...none, variant: 'cli-codex·inband', mode: 'inband' };
    const rows = summarizeShellTools([none, { ...none, repeat: 2 }, inband]);
    expect(rows.map((row) => [row.cli, row.mode, row.attempts])).toEqual([
      ['cli-codex', 'inband', 1],
      ['cli-codex', 'none', 2],
    ]);
    expect(rows[1]).toMatchObject({
      installed: true,
      returned: 2,
      ends: { 'returned-running': 2 },
      leftAfterTool: 4,
      leftAfterExit: 0,
      hangTaxMs: 37_020,
      hangTaxTokens: 3000,
      reasons: ['still running'],
    });
    expect(rows[1]!.example).toContain('Process running with session ID 3');
  });
});
