import { describe, expect, it } from 'vitest';
import { stopOutcome } from '../../src/attempt/stop-outcome.js';
import { attemptKey, sandboxAttemptId } from '../../src/types/attempt-key.js';

describe('stopOutcome', () => {
  it('a finished agent completed; the harness ends what it left running', () => {
    expect(stopOutcome(null)).toEqual({ outcome: 'completed', killer: 'harness' });
  });

  it('a budget is a limit, and the budget is the killer', () => {
    for (const kind of ['wall', 'tokens', 'turns'] as const)
      expect(stopOutcome({ kind, value: 2, limit: 1 })).toEqual({ outcome: 'limit', killer: 'budget' });
  });

  it('a shutdown or an error is an ERROR (never the agent failing), the harness the killer', () => {
    expect(stopOutcome({ kind: 'harness' })).toEqual({ outcome: 'error', killer: 'harness' });
    expect(stopOutcome({ kind: 'error', message: 'endpoint down' })).toEqual({ outcome: 'error', killer: 'harness' });
  });
});

describe('attemptKey', () => {
  it('is case/variant/repeat, the folder under the run folder; the sandbox id puts the run id first, path-safe', () => {
    const attempt = { caseId: 'py-pipe-deadlock', variant: 'baseline@interval', repeat: 2 };
    expect(attemptKey(attempt)).toBe('py-pipe-deadlock/baseline@interval/2');
    expect(sandboxAttemptId('run-1', attempt)).toBe('run-1.py-pipe-deadlock_baseline_interval_2');
  });
});
