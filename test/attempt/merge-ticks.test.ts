import { describe, expect, it } from 'vitest';
import { mergeTicks } from '../../src/attempt/merge-ticks.js';
import type { Tick } from '../../src/types/process.js';

function tick(seq: number, text: string, partialLine = false): Tick {
  return {
    commandId: 1,
    seq,
    elapsedMs: seq * 1000,
    sinceOutputMs: 0,
    totalOutputBytes: 0,
    output: { text, bytes: Buffer.byteLength(text), cutBytes: 0, foldedLines: 0, partialLine },
    snapshot: { source: 'unavailable', processes: [] },
    classification: 'progressing',
    reason: `tick ${seq}`,
  };
}

describe('mergeTicks', () => {
  it('returns a single tick unchanged', () => {
    const only = tick(1, 'a\n');
    expect(mergeTicks([only])).toBe(only);
  });

  it('keeps the latest state and the output of every missed tick', () => {
    const merged = mergeTicks([tick(1, 'compiling unit 3\n'), tick(2, ''), tick(3, 'Continue? [y/N] ', true)]);
    expect(merged.seq).toBe(3);
    expect(merged.reason).toBe('tick 3');
    expect(merged.output).toEqual({
      text: 'compiling unit 3\nContinue? [y/N] ',
      bytes: 33,
      cutBytes: 0,
      foldedLines: 0,
      partialLine: true,
    });
  });

  it('bounds the merged output with a marker saying how much was cut', () => {
    const big = 'x'.repeat(3000);
    const merged = mergeTicks([tick(1, big), tick(2, big), tick(3, big)]);
    expect(merged.output.text.length).toBeLessThan(4200);
    expect(merged.output.text).toContain('[… 4904 characters cut …]');
    expect(merged.output.cutBytes).toBe(4904);
    expect(merged.output.bytes).toBe(9000);
  });

  it('keeps a pending prompt when no tick had new output', () => {
    const merged = mergeTicks([
      tick(1, ''),
      {
        ...tick(2, ''),
        output: { text: '? Project name: › ', bytes: 0, cutBytes: 0, foldedLines: 0, partialLine: true },
      },
    ]);
    expect(merged.output.text).toBe('? Project name: › ');
  });
});
