import { describe, expect, it } from 'vitest';
import { interrupted } from '../../src/scorers/interrupted.js';
import { reproduced } from '../../src/scorers/reproduced.js';
import { controlTrace, hangTrace, solvedControl, solvedHang } from './trace-builder.js';

describe('reproduced', () => {
  it('is true when the onset came in an agent-started command before any edit', () => {
    expect(reproduced(solvedHang().build())).toBe(true);
  });

  it('is false when the onset came only after the first edit', () => {
    const events = hangTrace().command(1).write().at(5000).onset(1).end().build();
    expect(reproduced(events)).toBe(false);
  });

  it('is false when there was no onset', () => {
    const events = hangTrace().command(1).at(4000).exit(1, { exitCode: 0 }).end().build();
    expect(reproduced(events)).toBe(false);
  });

  it('ignores an onset in a command the agent never started', () => {
    const events = hangTrace().command(1).onset(7).end().build();
    expect(reproduced(events)).toBe(false);
  });

  it('counts the onset when the agent edited nothing at all', () => {
    const events = hangTrace().command(1).onset(1).end().build();
    expect(reproduced(events)).toBe(true);
  });

  it('is null for a control', () => {
    expect(reproduced(solvedControl().build())).toBeNull();
  });

  it('is false when the command printed its onset line and then exited on its own (a prompt that read EOF)', () => {
    const events = hangTrace().command(1).at(1000).onset(1).at(1010).exit(1, { exitCode: 1 }).end().build();
    expect(reproduced(events)).toBe(false);
  });

  it('is true when the command that showed the onset was killed, by the agent or by a budget', () => {
    for (const by of ['agent', 'budget'] as const) {
      const events = hangTrace()
        .command(1)
        .at(1000)
        .onset(1)
        .at(5000)
        .kill(1, by)
        .exit(1, { killed: true })
        .end()
        .build();
      expect(reproduced(events), by).toBe(true);
    }
  });

  it('is true when the command exited after the agent answered it (an input between onset and exit)', () => {
    const events = hangTrace()
      .command(1)
      .at(1000)
      .onset(1)
      .at(3000)
      .action('input')
      .at(3100)
      .exit(1, { exitCode: 0 })
      .end()
      .build();
    expect(reproduced(events)).toBe(true);
  });

  it('is true when something outside the harness ended it by a signal (a shell reports 128 + n)', () => {
    const events = hangTrace().command(1).at(1000).onset(1).at(9000).exit(1, { exitCode: 143 }).end().build();
    expect(reproduced(events)).toBe(true);
  });
});

describe('interrupted and interrupt_latency', () => {
  const killAfter = (latencyMs: number, by: 'agent' | 'budget' | 'harness' = 'agent') =>
    hangTrace({ budgets: { interruptMs: 30_000 } })
      .at(100)
      .command(1)
      .at(2000)
      .onset(1)
      .at(2000 + latencyMs)
      .kill(1, by)
      .exit(1, { killed: true })
      .end()
      .build();

  it('is true for an agent kill within budgets.interruptMs, with the latency kill − onset', () => {
    expect(interrupted(killAfter(10_000))).toEqual({ interrupted: true, interrupt_latency: 10_000 });
  });

  it('counts a kill exactly at the budget', () => {
    expect(interrupted(killAfter(30_000))).toEqual({ interrupted: true, interrupt_latency: 30_000 });
  });

  it('is false over budget but still reports the latency', () => {
    expect(interrupted(killAfter(45_000))).toEqual({ interrupted: false, interrupt_latency: 45_000 });
  });

  it('does not count a harness or budget kill', () => {
    expect(interrupted(killAfter(5000, 'harness'))).toEqual({ interrupted: false, interrupt_latency: null });
    expect(interrupted(killAfter(5000, 'budget'))).toEqual({ interrupted: false, interrupt_latency: null });
  });

  it('does not count an agent kill before the onset', () => {
    const events = hangTrace().at(100).command(1).at(500).kill(1).at(2000).onset(1).end().build();
    expect(interrupted(events)).toEqual({ interrupted: false, interrupt_latency: null });
  });

  it('does not count an agent kill of another command', () => {
    const events = hangTrace().command(1).command(2).at(2000).onset(1).at(3000).kill(2).end().build();
    expect(interrupted(events)).toEqual({ interrupted: false, interrupt_latency: null });
  });

  it('is false with no latency when there was no onset', () => {
    const events = hangTrace().command(1).at(3000).kill(1).end().build();
    expect(interrupted(events)).toEqual({ interrupted: false, interrupt_latency: null });
  });

  it('is null for a control', () => {
    expect(interrupted(solvedControl().build())).toEqual({ interrupted: null, interrupt_latency: null });
  });

  it('uses the time-scaled budget from attempt.start', () => {
    const events = hangTrace({ budgets: { interruptMs: 3000 } })
      .command(1)
      .at(1000)
      .onset(1)
      .at(5000)
      .kill(1)
      .end()
      .build();
    expect(interrupted(events)).toEqual({ interrupted: false, interrupt_latency: 4000 });
  });

  it('counts in the CPU-available time the ticks came on: what the load took from the clock in between is not late', () => {
    // 40 s of wall from the onset to the kill, 15 s of them taken by the load (the tick clock fell from 2 s to 17 s
    // behind): 25 s on the ticks' clock, within a 30 s budget that the wall span is over.
    const events = hangTrace({ budgets: { interruptMs: 30_000 } })
      .command(1)
      .at(3000)
      .onset(1, 2900, 2000)
      .at(43_000)
      .kill(1, 'agent', 17_000)
      .end()
      .build();
    expect(interrupted(events)).toEqual({ interrupted: true, interrupt_latency: 25_000 });
  });

  it('counts wall time when either record lacks the clock (a mode without a schedule, an older trace)', () => {
    const events = hangTrace({ budgets: { interruptMs: 30_000 } })
      .command(1)
      .at(3000)
      .onset(1, 2900)
      .at(43_000)
      .kill(1, 'agent', 17_000)
      .end()
      .build();
    expect(interrupted(events)).toEqual({ interrupted: false, interrupt_latency: 40_000 });
  });
});

describe('control kinds get no hang scores', () => {
  it('a control trace has null reproduced even with an onset-free kill', () => {
    expect(reproduced(controlTrace().command(1).kill(1).end().build())).toBeNull();
  });
});
