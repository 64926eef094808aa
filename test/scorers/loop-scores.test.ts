import { describe, expect, it } from 'vitest';
import { gates, hints, parseTrace, scoreAttempt } from '../../src/scorers/index.js';
import { hangTrace, solvedHang } from './trace-builder.js';

describe('gates_passed and gate_rounds', () => {
  it('are null for a case without gates, including traces from before gates existed', () => {
    expect(gates(solvedHang().build())).toEqual({ gates_passed: null, gate_rounds: null });
    expect(gates(hangTrace({ gates: 0 }).command(1).end().build())).toEqual({ gates_passed: null, gate_rounds: null });
  });

  it('count every round and judge the gates at the last (accepted) finish', () => {
    const events = hangTrace({ gates: 2 })
      .command(1)
      .action('finish')
      .gate(1, 0, false)
      .action('edit')
      .action('finish')
      .gate(2, 0, true)
      .gate(2, 1, true)
      .end()
      .build();
    expect(gates(events)).toEqual({ gates_passed: true, gate_rounds: 2 });
  });

  it('a round that stopped at a failing gate did not pass, even when its earlier gates did', () => {
    const events = hangTrace({ gates: 2 })
      .action('finish')
      .gate(1, 0, true)
      .gate(1, 1, false, { failures: 1, retries: 0 })
      .end()
      .build();
    expect(gates(events)).toEqual({ gates_passed: false, gate_rounds: 1 });
  });

  it('nop: retries + 1 failed rounds, then the finish is accepted with the gates failed', () => {
    let trace = hangTrace({ gates: 1 });
    for (let round = 1; round <= 3; round += 1)
      trace = trace.action('finish', round).gate(round, 0, false, { failures: round, retries: 2, timedOut: true });
    expect(gates(trace.end().build())).toEqual({ gates_passed: false, gate_rounds: 3 });
  });

  it('an agent that never finished has run no round: gates not passed, zero rounds', () => {
    const events = hangTrace({ gates: 1 }).command(1).limit('wall', 300_000, 300_000).end({ outcome: 'limit' }).build();
    expect(gates(events)).toEqual({ gates_passed: false, gate_rounds: 0 });
  });
});

describe('hint_given and hint_to_action', () => {
  it('are null for a case without hints', () => {
    expect(hints(solvedHang().build())).toEqual({ hint_given: null, hint_to_action: null });
  });

  it('a case with hints where none fired (hints off, or the trigger never came): not given', () => {
    expect(hints(hangTrace({ hints: 1 }).command(1).action('finish').end().build())).toEqual({
      hint_given: false,
      hint_to_action: null,
    });
  });

  it('measures from the first hint to the next kill, input or edit, not to a wait or a run', () => {
    const events = hangTrace({ hints: 2 })
      .at(500)
      .action('kill')
      .at(20_000)
      .hint(0)
      .at(21_000)
      .action('wait')
      .at(22_000)
      .action('run')
      .at(23_500)
      .action('input')
      .at(30_000)
      .hint(1)
      .at(31_000)
      .action('edit')
      .end()
      .build();
    expect(hints(events)).toEqual({ hint_given: true, hint_to_action: 3500 });
  });

  it('a hint the agent never acted on has no latency', () => {
    const events = hangTrace({ hints: 1 }).at(20_000).hint(0).action('wait').action('finish').end().build();
    expect(hints(events)).toEqual({ hint_given: true, hint_to_action: null });
  });
});

describe('hangbench score re-derives the loop scores', () => {
  it('from the JSONL text alone, the same as from the events', () => {
    const builder = hangTrace({ gates: 1, hints: 1 })
      .command(1)
      .at(2000)
      .onset(1)
      .at(4000)
      .hint(0)
      .at(5000)
      .action('kill')
      .kill(1)
      .exit(1, { killed: true })
      .action('edit')
      .write()
      .action('finish')
      .gate(1, 0, true)
      .verify(true)
      .end();
    const fromText = scoreAttempt(parseTrace(builder.toJsonl()));
    expect(fromText.scores).toMatchObject({
      gates_passed: true,
      gate_rounds: 1,
      hint_given: true,
      hint_to_action: 1000,
      solved: true,
    });
    expect(fromText).toEqual(scoreAttempt(builder.build()));
  });
});
