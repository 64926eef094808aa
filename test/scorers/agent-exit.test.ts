import { describe, expect, it } from 'vitest';
import { agentExit } from '../../src/scorers/agent-exit.js';
import { TraceBuilder } from './trace-builder.js';

const exitEvent = (ended: boolean, afterFinalMs: number | null) => ({
  type: 'agent.exit',
  ended,
  exitCode: ended ? null : 0,
  signal: null,
  afterFinalMs,
  graceMs: 30_000,
});

describe('agent_exit', () => {
  it('exited by itself, ended by the harness after the grace, or stopped with the attempt', () => {
    const cli = () => new TraceBuilder({ agent: 'cli:claude' });
    expect(agentExit(cli().event(exitEvent(false, 1_200)).end().build())).toEqual({
      agent_exit: 'exited',
      agent_exit_ms: 1_200,
    });
    expect(agentExit(cli().event(exitEvent(true, 30_004)).end().build())).toEqual({
      agent_exit: 'ended',
      agent_exit_ms: 30_004,
    });
    expect(agentExit(cli().limit('wall', 90_000, 90_000).end().build())).toEqual({
      agent_exit: 'stopped',
      agent_exit_ms: null,
    });
  });

  it('reads a trace from before agent.exit by its note; null for agents that are not CLIs', () => {
    const old = new TraceBuilder({ agent: 'cli:qwen' })
      .event({ type: 'agent.note', kind: 'agent', message: 'qwen exited with code 0' })
      .end()
      .build();
    expect(agentExit(old)).toEqual({ agent_exit: 'exited', agent_exit_ms: null });
    expect(agentExit(new TraceBuilder().end().build())).toEqual({ agent_exit: null, agent_exit_ms: null });
  });
});
