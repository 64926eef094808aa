import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attemptStartEvent } from '../../src/attempt/attempt-plan.js';
import { loadCaseFile } from '../../src/cases/load-cases.js';
import type { HostCapabilities } from '../../src/sandbox/index.js';
import type { Case } from '../../src/types/case.js';
import type { VariantSpec } from '../../src/types/variant.js';

const CASE_FILE = path.resolve(import.meta.dirname, '../../cases/bash-fifo-no-writer.yaml');
const capabilities = { mechanism: 'process-group', isolation: 'host-user' } as unknown as HostCapabilities;

async function fifoCase(): Promise<Case> {
  const loaded = await loadCaseFile(CASE_FILE);
  if ('problems' in loaded) throw new Error(JSON.stringify(loaded.problems));
  return loaded;
}

const variant = (budgets?: VariantSpec['budgets']): VariantSpec => ({
  name: 'cli-opencode·none',
  agent: { agent: 'cli', adapter: 'opencode', settings: {}, model: 'probe' },
  monitor: { mode: 'none', everyMs: 10_000 },
  ...(budgets ? { budgets } : {}),
});

describe('the wall budget an attempt records', () => {
  it("with the probe model it outlasts the CLI tool's longest own deadline by the margin, unscaled", async () => {
    const testCase = await fifoCase();
    expect(testCase.budgets.wall).toBe(90_000);
    const start = attemptStartEvent({ testCase, variant: variant(), repeat: 1 }, 1, capabilities, {
      timeouts: { tool: 120_000 },
      probe: true,
    });
    expect(start.budgets).toMatchObject({ wallMs: 180_000, wallFrom: 'tool-timeout' });
    expect(start.toolTimeouts).toEqual({ tool: 120_000 });
    const scaled = attemptStartEvent({ testCase, variant: variant(), repeat: 1 }, 0.1, capabilities, {
      timeouts: { idle: 300_000, tool: 10_000 },
      probe: true,
    });
    expect(scaled.budgets).toMatchObject({ wallMs: 360_000, wallFrom: 'tool-timeout' });
  });

  it("keeps the case's budget for a real model, a tool without deadlines or one shorter than the case's", async () => {
    const testCase = await fifoCase();
    const attempt = { testCase, variant: variant(), repeat: 1 };
    const real = attemptStartEvent(attempt, 1, capabilities, { timeouts: { tool: 120_000 }, probe: false });
    expect(real.budgets).toMatchObject({ wallMs: 90_000, wallFrom: 'case' });
    const none = attemptStartEvent(attempt, 1, capabilities, { timeouts: {}, probe: true });
    expect(none.budgets).toMatchObject({ wallMs: 90_000, wallFrom: 'case' });
    const short = attemptStartEvent(attempt, 1, capabilities, { timeouts: { tool: 10_000 }, probe: true });
    expect(short.budgets).toMatchObject({ wallMs: 90_000, wallFrom: 'case' });
    const loop = attemptStartEvent(attempt, 1, capabilities);
    expect(loop.budgets).toMatchObject({ wallMs: 90_000, wallFrom: 'case' });
    expect(loop.toolTimeouts).toBeUndefined();
  });

  it("a variant's own wall budget wins over the floor, and says so", async () => {
    const testCase = await fifoCase();
    const start = attemptStartEvent({ testCase, variant: variant({ wallMs: 60_000 }), repeat: 1 }, 1, capabilities, {
      timeouts: { tool: 120_000 },
      probe: true,
    });
    expect(start.budgets).toMatchObject({ wallMs: 60_000, wallFrom: 'variant' });
  });
});
