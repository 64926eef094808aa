import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';

let encoder: Tiktoken | undefined;

/**
 * js-tiktoken's byte-pair merge is quadratic in the length of one pre-token: a 4000-character line of dashes took
 * 5 s and froze the harness. Runs longer than this (no whitespace, or only whitespace) are counted in pieces.
 */
const PIECE = 64;
const LONG_RUN = new RegExp(`\\S{${PIECE + 1},}|\\s{${PIECE + 1},}`, 'g');

/**
 * Counts tokens with OpenAI's o200k_base encoding (gpt-4o family), the figure we report for rendered ticks.
 * Exact for text without such runs; within a token per 64 characters of a run otherwise.
 */
export function countTokens(text: string): number {
  encoder ??= new Tiktoken(o200k);
  let count = 0;
  let from = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    count += encoder.encode(text.slice(from, run.index)).length;
    for (let at = 0; at < run[0].length; at += PIECE) count += encoder.encode(run[0].slice(at, at + PIECE)).length;
    from = run.index + run[0].length;
  }
  return count + encoder.encode(text.slice(from)).length;
}
