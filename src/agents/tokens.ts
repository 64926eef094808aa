import { createRequire } from 'node:module';

type Encode = (text: string) => readonly number[];

const require = createRequire(import.meta.url);
let encode: Encode | undefined;

/**
 * The o200k ranks cost about 190 ms and 70 MB when loaded (gpt-tokenizer; js-tiktoken took 1 s and 180 MB, see
 * docs/performance.md), so they load at the first count, never at import: a run that counts nothing never pays.
 */
function encoder(): Encode {
  encode ??= (require('gpt-tokenizer/encoding/o200k_base') as { encode: Encode }).encode;
  return encode;
}

/** Loads the ranks now, so a run pays the load before its first attempt rather than inside one's first tick. */
export function loadTokenizer(): void {
  encoder();
}

/**
 * Byte-pair merging is quadratic in the length of one pre-token: a 4000-character line of dashes took 5 s in
 * js-tiktoken and 20,000 spaces 0.6 s in gpt-tokenizer. Runs longer than this (no whitespace, or only whitespace)
 * are counted in pieces.
 */
const PIECE = 64;
const LONG_RUN = new RegExp(`\\S{${PIECE + 1},}|\\s{${PIECE + 1},}`, 'g');

/**
 * Counts tokens with OpenAI's o200k_base encoding (gpt-4o family), the figure we report for rendered ticks.
 * Exact for text without such runs; within a token per 64 characters of a run otherwise.
 */
export function countTokens(text: string): number {
  if (text === '') return 0;
  const encodeText = encoder();
  let count = 0;
  let from = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    count += encodeText(text.slice(from, run.index)).length;
    for (let at = 0; at < run[0].length; at += PIECE) count += encodeText(run[0].slice(at, at + PIECE)).length;
    from = run.index + run[0].length;
  }
  return count + encodeText(text.slice(from)).length;
}
