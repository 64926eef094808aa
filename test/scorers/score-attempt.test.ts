import { describe, expect, it } from 'vitest';
import { scoreAttempt } from '../../src/scorers/index.js';
import { HangbenchError } from '../../src/types/errors.js';
import { controlTrace, hangTrace, solvedControl, solvedHang } from './trace-builder.js';

describe('scoreAttempt', () => {
  it('scores the oracle path through a hang as solved, with every field', () => {
    expect(scoreAttempt(solvedHang().build())).toEqual({
      caseId: 'py-pipe-deadlock',
      kind: 'hang',
      class: 'pipe-write-block',
      variant: 'interval-10s',
      agent: 'baseline',
      repeat: 1,
      mode: 'interval',
      outcome: 'completed',
      scores: {
        reproduced: true,
        interrupted: true,
        interrupt_latency: 10_000,
        fixed: true,
        intact: null,
        false_kill: null,
        completed: null,
        within_budget: true,
        clean: true,
        solved: true,
        gates_passed: null,
        gate_rounds: null,
        hint_given: null,
        hint_to_action: null,
        diagnosed: null,
        // from the onset to the command's exit after the kill; tokens spent meanwhile
        hang_tax_ms: 10_010,
        hang_tax_tokens: 0,
        // shell-tool fields are for installed agents only
        tool_return_ms: null,
        tool_end: null,
        tool_result: null,
        left_after_tool: null,
        left_after_exit: null,
        tool_timeout_ms: null,
        agent_exit: null,
        agent_exit_ms: null,
        agent_boot_ms: null,
        agent_boot_cpu_ms: null,
      },
      ticks: 1,
      tokens: 1000,
      wallMs: 12_040,
      classificationAtEnd: 'blocked-on-pipe',
    });
  });

  it('a hang that was not fixed is not solved', () => {
    const events = hangTrace().command(1).at(2000).onset(1).at(3000).kill(1).write().verify(false).end().build();
    const { scores } = scoreAttempt(events);
    expect(scores.interrupted).toBe(true);
    expect(scores.fixed).toBe(false);
    expect(scores.solved).toBe(false);
  });

  it('a hang over the token budget is not solved', () => {
    const events = hangTrace()
      .command(1)
      .at(2000)
      .onset(1)
      .at(3000)
      .kill(1)
      .verify(true)
      .end({ tokens: 70_000 })
      .build();
    expect(scoreAttempt(events).scores).toMatchObject({
      reproduced: true,
      interrupted: true,
      within_budget: false,
      solved: false,
    });
  });

  it('scores a control the agent let finish as solved', () => {
    const result = scoreAttempt(solvedControl().build());
    expect(result.scores).toEqual({
      reproduced: null,
      interrupted: null,
      interrupt_latency: null,
      fixed: null,
      intact: true,
      false_kill: false,
      completed: true,
      within_budget: true,
      clean: true,
      solved: true,
      gates_passed: null,
      gate_rounds: null,
      hint_given: null,
      hint_to_action: null,
      diagnosed: null,
      hang_tax_ms: null,
      hang_tax_tokens: null,
      tool_return_ms: null,
      tool_end: null,
      tool_result: null,
      left_after_tool: null,
      left_after_exit: null,
      tool_timeout_ms: null,
      agent_exit: null,
      agent_exit_ms: null,
      agent_boot_ms: null,
      agent_boot_cpu_ms: null,
    });
    expect(result.classificationAtEnd).toBe('busy-no-output');
  });

  it('scores a control’s verify as intact (it broke nothing), never as fixed', () => {
    const broken = controlTrace().command(1).at(20_000).exit(1, { exitCode: 0 }).write().verify(false).end().build();
    expect(scoreAttempt(broken).scores).toMatchObject({
      fixed: null,
      intact: false,
      false_kill: false,
      completed: true,
    });
    expect(scoreAttempt(solvedControl().build()).scores).toMatchObject({ fixed: null, intact: true });
    expect(scoreAttempt(solvedHang().build()).scores).toMatchObject({ fixed: true, intact: null });
  });

  it('a control with a false kill is not solved, even when a later run completed', () => {
    const events = controlTrace()
      .command(1)
      .at(5000)
      .tick(1, 'busy-no-output')
      .kill(1)
      .exit(1, { killed: true })
      .command(2)
      .at(20_000)
      .exit(2, { exitCode: 0 })
      .verify(true)
      .end()
      .build();
    const result = scoreAttempt(events);
    expect(result.scores).toMatchObject({ false_kill: true, completed: true, solved: false });
    expect(result.classificationAtEnd).toBe('busy-no-output');
  });

  it('an error outcome is never solved, whatever else happened', () => {
    const hang = solvedHang().build();
    const end = hang.at(-1);
    if (end?.type !== 'attempt.end') throw new Error('expected attempt.end');
    const errored = [...hang.slice(0, -1), { ...end, outcome: 'error' as const }];
    expect(scoreAttempt(errored)).toMatchObject({
      outcome: 'error',
      scores: { reproduced: true, interrupted: true, fixed: true, solved: false },
    });

    const control = solvedControl().build();
    const controlEnd = control.at(-1);
    if (controlEnd?.type !== 'attempt.end') throw new Error('expected attempt.end');
    const controlErrored = [...control.slice(0, -1), { ...controlEnd, outcome: 'error' as const }];
    expect(scoreAttempt(controlErrored).scores.solved).toBe(false);
  });

  it('a trace cut short before attempt.end scores as an error with tokens from the responses', () => {
    const events = hangTrace().response(500, 100).command(1).at(2000).onset(1).at(2500).kill(1).build();
    expect(scoreAttempt(events)).toMatchObject({
      outcome: 'error',
      tokens: 600,
      wallMs: 2500,
      scores: { reproduced: true, interrupted: true, within_budget: false, clean: false, solved: false },
    });
  });

  it('takes the classification of the last tick before the agent’s kill, ignoring later ticks and other commands', () => {
    const events = hangTrace()
      .command(1)
      .command(2)
      .at(1000)
      .onset(1)
      .tick(1, 'progressing', 1)
      .tick(1, 'blocked-on-pipe', 2)
      .tick(2, 'sleeping', 1)
      .kill(1)
      .tick(1, 'exited', 3)
      .end()
      .build();
    expect(scoreAttempt(events).classificationAtEnd).toBe('blocked-on-pipe');
  });

  it('falls back to the repro command’s exit when there was no onset and no kill', () => {
    const events = hangTrace().command(1).tick(1, 'progressing').exit(1, { exitCode: 1 }).end().build();
    expect(scoreAttempt(events).classificationAtEnd).toBe('progressing');
  });

  it('has no classification when the command neither was killed nor exited', () => {
    expect(scoreAttempt(hangTrace().command(1).tick(1, 'sleeping').end().build()).classificationAtEnd).toBeNull();
  });

  it('counts every tick', () => {
    const events = hangTrace()
      .command(1)
      .tick(1, 'sleeping', 1)
      .tick(1, 'sleeping', 2)
      .tick(1, 'sleeping', 3)
      .end()
      .build();
    expect(scoreAttempt(events).ticks).toBe(3);
  });

  it('refuses a trace that does not begin with attempt.start', () => {
    const events = solvedHang().build().slice(1);
    expect(() => scoreAttempt(events)).toThrow(HangbenchError);
    expect(() => scoreAttempt([])).toThrow(/attempt\.start/);
  });
});
