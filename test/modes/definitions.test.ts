import { describe, expect, it } from 'vitest';
import {
  makeMode,
  MODE_NAMES,
  modeLabel,
  modePeriodMs,
  modeTakes,
  MonitorModeSchema,
  pullsStatus,
  scaleMode,
  scheduleFor,
  ticksInOutput,
  withModePeriod,
} from '../../src/modes/index.js';

describe('one definition per monitor mode', () => {
  it('owns what the session and the agents ask of it: only poll has the agent pull, only inband ticks into the output', () => {
    const modes = MODE_NAMES.map((name) => makeMode(name, { periodMs: 1000 }));
    expect(modes.filter(pullsStatus).map((mode) => mode.mode)).toEqual(['poll']);
    expect(modes.filter(ticksInOutput).map((mode) => mode.mode)).toEqual(['inband']);
  });

  for (const name of MODE_NAMES) {
    describe(name, () => {
      const takesPeriod = modeTakes(name).includes('interval');
      const mode = makeMode(name, { periodMs: 5000 });

      it('builds a spec its own schema accepts, for its own name', () => {
        expect(MonitorModeSchema.parse(mode)).toEqual(mode);
        expect(mode.mode).toBe(name);
      });

      it('has the period --interval gave it exactly when it takes --interval', () => {
        expect(modePeriodMs(mode)).toBe(takesPeriod ? 5000 : null);
        if (takesPeriod) expect(modePeriodMs(withModePeriod(mode, 700))).toBe(700);
        expect(withModePeriod(mode, modePeriodMs(mode) ?? 0)).toEqual(mode);
      });

      it('scales every duration it has, and scale 1 changes nothing', () => {
        expect(scaleMode(mode, 1)).toEqual(mode);
        const scaled = scaleMode(mode, 0.1);
        expect(MonitorModeSchema.parse(scaled)).toEqual(scaled);
        if (takesPeriod) expect(modePeriodMs(scaled)).toBeCloseTo(500);
        for (const [field, value] of Object.entries(mode)) {
          if (field.endsWith('Ms'))
            expect((scaled as Record<string, unknown>)[field]).toBeCloseTo((value as number) * 0.1);
        }
      });

      it('pushes a schedule exactly when it has a period', () => {
        expect(scheduleFor(mode) !== null).toBe(takesPeriod);
      });
    });
  }

  it('gives every mode a label of its own, safe in a path', () => {
    const labels = MODE_NAMES.map((name) => modeLabel(makeMode(name, { periodMs: 5000 })));
    expect(new Set(labels).size).toBe(MODE_NAMES.length);
    for (const label of labels) expect(label).toMatch(/^[A-Za-z0-9._+-]+$/);
    expect(labels).toEqual([
      'interval-5s',
      'no-output-5s',
      'backoff-5s-x2-max-1m',
      'timeout-5s',
      'poll',
      'wait-pid',
      'none',
      'inband-5s',
    ]);
  });

  it('takes the config fields of its own mode and no other', () => {
    expect(makeMode('no-output', { periodMs: 5000, everyMs: 1000, factor: 3 })).toEqual({
      mode: 'no-output',
      afterMs: 5000,
      everyMs: 1000,
    });
    expect(makeMode('backoff', { periodMs: 5000, everyMs: 1000, factor: 3, maxMs: 8000 })).toEqual({
      mode: 'backoff',
      firstMs: 5000,
      factor: 3,
      maxMs: 8000,
    });
    // without max, the cap is never below the first gap
    expect(makeMode('backoff', { periodMs: 90_000 })).toEqual({
      mode: 'backoff',
      firstMs: 90_000,
      factor: 2,
      maxMs: 90_000,
    });
    expect(makeMode('interval', { periodMs: 5000, everyMs: 1000, maxMs: 8000 })).toEqual({
      mode: 'interval',
      everyMs: 5000,
    });
  });
});
