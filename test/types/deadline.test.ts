import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/types/deadline.js';

describe('withDeadline', () => {
  it('returns the value when the work settles first', async () => {
    const result = await withDeadline(Promise.resolve(42), { what: 'the answer', ms: 1_000 });
    expect(result).toMatchObject({ state: 'settled', value: 42 });
  });

  it('gives up at the deadline, escalates once and says what it gave up on', async () => {
    let escalations = 0;
    const never = new Promise<never>(() => undefined);
    const result = await withDeadline(never, {
      what: "the agent's stdout to close",
      ms: 20,
      onExpire: () => void escalations++,
    });
    expect(result).toMatchObject({ state: 'expired', what: "the agent's stdout to close" });
    expect(result.waitedMs).toBeGreaterThanOrEqual(15);
    expect(escalations).toBe(1);
  });

  it('passes on a rejection that comes before the deadline', async () => {
    await expect(withDeadline(Promise.reject(new Error('boom')), { what: 'x', ms: 1_000 })).rejects.toThrow('boom');
  });

  it('swallows a rejection that comes after the deadline', async () => {
    const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('late')), 40));
    const result = await withDeadline(late, { what: 'x', ms: 5 });
    expect(result.state).toBe('expired');
    await new Promise((resolve) => setTimeout(resolve, 60));
  });
});
