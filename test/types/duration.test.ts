import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/types/duration.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1.5s', 1500],
    ['2', 2000],
    [' 10s ', 10_000],
    [0.25, 250],
    [12, 12_000],
  ])('%j → %d ms', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });

  it.each(['', 'fast', '10 seconds', '-5s', '5x', '1e3s'])(
    'rejects %j with a message that shows the accepted forms',
    (input) => {
      expect(() => parseDuration(input)).toThrow(/250ms, 30s, 5m/);
    },
  );

  it('rejects negative and non-finite numbers', () => {
    expect(() => parseDuration(-1)).toThrow(RangeError);
    expect(() => parseDuration(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatDuration', () => {
  it.each([
    [250, '250ms'],
    [1500, '1.5s'],
    [10_000, '10s'],
    [90_000, '1m30s'],
    [120_000, '2m'],
    [119_600, '2m'],
    [179_499, '2m59s'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
