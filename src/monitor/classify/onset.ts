import type { Onset } from '../../types/case.js';

export type OutputStream = 'stdout' | 'stderr';

/** Ground truth for when a hang begins; fires once, never shown to agents. */
export interface OnsetMatcher {
  readonly fired: boolean;
  /** ms after start at which a timed onset fires (0 for `start: true`); null for an output onset. */
  readonly timedAtMs: number | null;
  /** Feeds a chunk; returns the trigger description the first time the onset text has appeared on that stream. */
  feed(chunk: Buffer, stream: OutputStream): string | null;
  /** Fires a timed onset; returns its trigger description, or null when it already fired or is not timed. */
  fireTimed(): string | null;
}

/**
 * Matches bytes, not decoded text, so a UTF-8 character split across chunks cannot hide the
 * needle. Each stream keeps its last needle-length − 1 bytes, enough to see a needle that
 * straddles any number of chunk boundaries, and nothing waits for a newline (prompts have none).
 */
export function createOnsetMatcher(onset: Onset | null | undefined): OnsetMatcher {
  let fired = false;
  const needle = onset && 'output' in onset ? Buffer.from(onset.output, 'utf8') : null;
  const timedAtMs = !onset || 'output' in onset ? null : 'after' in onset ? onset.after : 0;
  const carry: Record<OutputStream, Buffer> = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
  return {
    get fired() {
      return fired;
    },
    timedAtMs,
    feed(chunk, stream) {
      if (fired || !needle || chunk.length === 0) return null;
      const keep = needle.length - 1;
      // Search only the carry plus this chunk's first needle-length bytes at the seam, then the chunk itself.
      const seam = Buffer.concat([carry[stream], chunk.subarray(0, keep)]);
      if (seam.includes(needle) || chunk.includes(needle)) {
        fired = true;
        return `output ${JSON.stringify(needle.toString('utf8'))} on ${stream}`;
      }
      if (keep > 0) {
        const last =
          chunk.length >= keep ? chunk.subarray(-keep) : Buffer.concat([carry[stream], chunk]).subarray(-keep);
        // A copy, so a huge chunk's memory is not kept alive by a few carried bytes.
        carry[stream] = Buffer.from(last);
      }
      return null;
    },
    fireTimed() {
      if (fired || timedAtMs === null) return null;
      fired = true;
      return timedAtMs === 0 ? 'start' : `${timedAtMs}ms after start`;
    },
  };
}
