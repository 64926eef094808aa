import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runEval } from '../../src/run/run-eval.js';
import { attemptMarkerProcesses } from '../support/proc-scan.js';
import { BASELINE_PINS } from './baseline-pins.js';
import { PROJECT_ROOT } from './run-hostile.js';

/**
 * The baseline's outcome on every case, pinned, at time scale 1: the scale the cases' timings were written for. At a
 * smaller scale the ticks come so fast that start-up speed decides where a kill lands against the onset.
 */
const outs: string[] = [];
afterAll(async () => {
  for (const out of outs) await rm(out, { recursive: true, force: true });
});

describe('the baseline agent on every case at time scale 1', () => {
  it('interrupts and false-kills exactly what the pins say the monitor can and cannot tell apart', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-baseline-pins-'));
    outs.push(out);
    const result = await runEval({ agent: 'baseline', timeScale: 1, out, cwd: PROJECT_ROOT, runId: 'baseline' });
    expect(result.problems).toEqual([]);
    const found = new Map(result.summary.attempts.map((attempt) => [attempt.caseId, attempt]));
    expect([...found.keys()].filter((caseId) => !(caseId in BASELINE_PINS))).toEqual([]);
    for (const [caseId, pin] of Object.entries(BASELINE_PINS)) {
      const attempt = found.get(caseId);
      const actual = attempt?.kind === 'hang' ? { interrupted: attempt.scores.interrupted } : { false_kill: attempt?.scores.false_kill };
      const expected = 'interrupted' in pin ? { interrupted: pin.interrupted } : { false_kill: pin.false_kill };
      expect({ caseId, ...actual }).toEqual({ caseId, ...expected });
    }
    expect(result.summary.attempts.filter((attempt) => !attempt.scores.clean).map((attempt) => attempt.caseId)).toEqual([]);
    expect(attemptMarkerProcesses('baseline.')).toEqual([]);
  }, 900_000);
});
