import { describe, expect, it } from 'vitest';
import { ExitGrace } from '../../src/attempt/exit-grace.js';

const settled = async (grace: ExitGrace, ms: number): Promise<boolean> =>
  Promise.race([
    grace.expired.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

describe('the wait for a CLI to exit after its final answer', () => {
  it('runs out after a final answer with no call after it', async () => {
    const grace = new ExitGrace(50);
    expect(grace.sinceFinalMs()).toBeNull();
    grace.response(true);
    expect(await settled(grace, 5_000)).toBe(true);
    expect(grace.sinceFinalMs()).toBeGreaterThanOrEqual(49);
  });

  it('does not start on a tool call, and a later call cancels it', async () => {
    const grace = new ExitGrace(50);
    grace.response(false);
    expect(await settled(grace, 200)).toBe(false);
    grace.response(true);
    grace.request();
    expect(await settled(grace, 200)).toBe(false);
    grace.dispose();
  });
});
