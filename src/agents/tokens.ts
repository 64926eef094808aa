import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The tokens of one model call (or of a run of them). */
export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly cachedTokens: number;
}

type Encode = (text: string) => readonly number[];
interface GptEncodingClass {
  getEncodingApi(name: string, ranks: () => ReadonlyArray<string | number[]>): { encode: Encode };
}

const require = createRequire(import.meta.url);
let encode: Encode | undefined;

/**
 * The o200k encoder, built at the first count, never at import. The ranks come from gpt-tokenizer's .tiktoken file
 * (base64 of each token's bytes, one a line) rather than its 2.4 MB JavaScript array literal: compiling that literal
 * peaked at 115 MB RSS where reading the file peaks at 94 MB, with the same ranks (js-tiktoken took 1 s and 230 MB).
 */
function encoder(): Encode {
  if (encode === undefined) {
    const { GptEncoding } = require('gpt-tokenizer/GptEncoding') as { GptEncoding: GptEncodingClass };
    const ranks = readRanks(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'));
    encode = GptEncoding.getEncodingApi('o200k_base', () => ranks).encode;
  }
  return encode;
}

/** Loads the ranks now, so a run pays the load before its first attempt rather than inside one's first tick. */
export function loadTokenizer(): void {
  encoder();
}

/** Each token as a string where its bytes are valid UTF-8 (as gpt-tokenizer's own table has them), else as bytes. */
function readRanks(file: string): Array<string | number[]> {
  const text = readFileSync(file, 'latin1');
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const ranks: Array<string | number[]> = [];
  for (let from = 0; from < text.length;) {
    const space = text.indexOf(' ', from);
    const end = text.indexOf('\n', space);
    const line = end < 0 ? text.length : end;
    const bytes = Buffer.from(text.slice(from, space), 'base64');
    let token: string | number[];
    try {
      token = utf8.decode(bytes);
    } catch {
      token = [...bytes];
    }
    ranks[Number(text.slice(space + 1, line))] = token;
    from = line + 1;
  }
  return ranks;
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
 * Exact for text without such runs; within a token per 64 characters of a run otherwise. `countTokens('')` loads
 * nothing: a run whose commands never tick (nop, quick programs) never pays the ~70 MB.
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
