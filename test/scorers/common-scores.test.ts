import { describe, expect, it } from 'vitest';
import { clean } from '../../src/scorers/clean.js';
import { completed } from '../../src/scorers/completed.js';
import { falseKill } from '../../src/scorers/false-kill.js';
import { fixed, intact } from '../../src/scorers/fixed.js';
import { withinBudget } from '../../src/scorers/within-budget.js';
import { controlTrace, hangTrace, solvedControl, solvedHang } from './trace-builder.js';

describe('fixed', () => {
  it('is true when every verify step passed', () => {
    expect(fixed(hangTrace().verify(true, 0).verify(true, 1).end().build())).toBe(true);
  });

  it('is false when one step failed', () => {
    expect(fixed(hangTrace().verify(true, 0).verify(false, 1).end().build())).toBe(false);
  });

  it('is false when no verify step ran', () => {
    expect(fixed(hangTrace().end().build())).toBe(false);
  });

  it('is a hang’s score: a control has nothing to fix, even when its verify passes untouched', () => {
    expect(fixed(controlTrace().verify(true, 0).end().build())).toBeNull();
  });
});

describe('intact (controls)', () => {
  it('is true when the control’s verify still passes after the agent, false when a step fails or none ran', () => {
    expect(intact(controlTrace().verify(true, 0).verify(true, 1).end().build())).toBe(true);
    expect(intact(controlTrace().write().verify(false, 0).end().build())).toBe(false);
    expect(intact(controlTrace().end().build())).toBe(false);
  });

  it('is null for a hang', () => {
    expect(intact(hangTrace().verify(true, 0).end().build())).toBeNull();
  });
});

describe('false_kill and completed (controls)', () => {
  it('a control run to exit 0 is completed and not a false kill', () => {
    const events = solvedControl().build();
    expect(falseKill(events)).toBe(false);
    expect(completed(events)).toBe(true);
  });

  it('an agent kill of a running command is a false kill, and the killed command did not complete', () => {
    const events = controlTrace().command(1).at(5000).kill(1).exit(1, { killed: true }).end().build();
    expect(falseKill(events)).toBe(true);
    expect(completed(events)).toBe(false);
  });

  it('only a run of the repro can complete a control (running `ls` does not)', () => {
    const events = controlTrace().command(1, { isRepro: false, command: 'ls' }).exit(1, { exitCode: 0 }).end().build();
    expect(completed(events)).toBe(false);
  });

  it('a kill after the command already exited is not a false kill', () => {
    const events = controlTrace().command(1).exit(1, { exitCode: 0 }).kill(1).end().build();
    expect(falseKill(events)).toBe(false);
  });

  it('a budget kill is not the agent’s false kill', () => {
    const events = controlTrace().command(1).kill(1, 'budget').exit(1, { killed: true }).end().build();
    expect(falseKill(events)).toBe(false);
    expect(completed(events)).toBe(false);
  });

  it('an exit 0 after a kill (a SIGTERM handler) is not completion', () => {
    const events = controlTrace().command(1).kill(1, 'budget').exit(1, { exitCode: 0, killed: false }).end().build();
    expect(completed(events)).toBe(false);
  });

  it('a non-zero exit is not completion', () => {
    expect(completed(controlTrace().command(1).exit(1, { exitCode: 2 }).end().build())).toBe(false);
  });

  it('both are null for a hang', () => {
    const events = solvedHang().build();
    expect(falseKill(events)).toBeNull();
    expect(completed(events)).toBeNull();
  });
});

describe('within_budget', () => {
  it('is true within tokens and wall time', () => {
    expect(withinBudget(hangTrace().end({ tokens: 60_000, agentWallMs: 300_000 }).build())).toBe(true);
  });

  it('is false with tokens over budget', () => {
    expect(withinBudget(hangTrace().end({ tokens: 60_001 }).build())).toBe(false);
  });

  it('is false with agent wall time over budget', () => {
    expect(
      withinBudget(
        hangTrace({ budgets: { wallMs: 1000 } })
          .end({ agentWallMs: 1500 })
          .build(),
      ),
    ).toBe(false);
  });

  it('is false when a limit was hit, even with the totals inside budget', () => {
    expect(withinBudget(hangTrace().limit('turns', 50, 50).end({ tokens: 10 }).build())).toBe(false);
  });

  it('is false for a trace cut short before attempt.end', () => {
    expect(withinBudget(hangTrace().command(1).build())).toBe(false);
  });
});

describe('clean', () => {
  it('is true when attempt.end says clean and nothing leaked', () => {
    expect(clean(solvedHang().build())).toBe(true);
  });

  it('is false with a leak event', () => {
    expect(clean(hangTrace().leak().end({ clean: true }).build())).toBe(false);
  });

  it('is false when attempt.end says not clean', () => {
    expect(clean(hangTrace().end({ clean: false }).build())).toBe(false);
  });
});
