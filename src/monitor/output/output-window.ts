import type { TickOutput } from '../../types/process.js';
import { ByteRing, decodeCut } from './byte-ring.js';
import { foldLines } from './fold-lines.js';
import { visibleLine } from '../classify/prompt.js';

export interface WindowLimits {
  /** bytes kept from the start of each tick's output. */
  readonly headBytes: number;
  /** bytes kept from the end of each tick's output. */
  readonly tailBytes: number;
}

export const DEFAULT_WINDOW: WindowLimits = { headBytes: 1024, tailBytes: 3072 };
// A prompt or progress bar is short; a longer unfinished line keeps its end, where the question is.
const LAST_LINE_BYTES = 512;
const NEWLINE = 0x0a;

/** A tick's output plus what the classifier needs and the trace does not. */
export interface WindowText extends TickOutput {
  /** the unfinished last line of the whole stream so far ('' after a newline). */
  readonly lastLine: string;
  /** lines in the bounded window before folding. */
  readonly lines: number;
}

/**
 * The output since the last tick in fixed memory: a head buffer and a tail ring, whatever the
 * volume. `push` only copies bytes and scans each chunk once for its last newline (native),
 * so a flood costs no per-line JavaScript; lines are split and folded in `take`, on ≤ head+tail bytes.
 */
export class OutputWindow {
  private readonly head: Buffer;
  private headLength = 0;
  private readonly tail: ByteRing;
  private bytes = 0;
  private readonly lastLine = new ByteRing(LAST_LINE_BYTES);
  private lastLineCut = false;
  private endsWithNewline = true;

  constructor(limits: WindowLimits = DEFAULT_WINDOW) {
    this.head = Buffer.alloc(limits.headBytes);
    this.tail = new ByteRing(limits.tailBytes);
  }

  /** bytes pushed since the last take. */
  get pending(): number {
    return this.bytes;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.bytes += chunk.length;
    const intoHead = Math.min(chunk.length, this.head.length - this.headLength);
    if (intoHead > 0) {
      this.head.set(chunk.subarray(0, intoHead), this.headLength);
      this.headLength += intoHead;
    }
    if (intoHead < chunk.length) this.tail.push(chunk.subarray(intoHead));
    this.trackLastLine(chunk);
  }

  /** Renders the output since the last take (bounded, folded) and starts a new window. */
  take(): WindowText {
    const bytes = this.bytes;
    const cutBytes = bytes - this.headLength - this.tail.size;
    const partialLine = !this.endsWithNewline;
    const lastLine = partialLine ? decodeCut(this.lastLine.read(), { cutStart: this.lastLineCut, cutEnd: false }) : '';
    let text: string;
    let foldedLines = 0;
    let lines = 0;
    if (bytes === 0) {
      // Nothing new, but a prompt printed earlier is still what the terminal shows last.
      text = visibleLine(lastLine);
    } else if (cutBytes === 0) {
      ({ text, foldedLines, lines } = foldLines(
        Buffer.concat([this.head.subarray(0, this.headLength), this.tail.read()]).toString('utf8'),
      ));
    } else {
      const head = foldLines(decodeCut(this.head.subarray(0, this.headLength), { cutStart: false, cutEnd: true }));
      const tail = foldLines(decodeCut(this.tail.read(), { cutStart: true, cutEnd: false }));
      const gap = head.text.endsWith('\n') ? '' : '\n';
      text = `${head.text}${gap}… [${cutBytes} bytes cut] …\n${tail.text}`;
      foldedLines = head.foldedLines + tail.foldedLines;
      lines = head.lines + tail.lines;
    }
    this.headLength = 0;
    this.tail.clear();
    this.bytes = 0;
    return { text, bytes, cutBytes, foldedLines, partialLine, lastLine, lines };
  }

  private trackLastLine(chunk: Uint8Array): void {
    this.endsWithNewline = chunk[chunk.length - 1] === NEWLINE;
    const newline = chunk.lastIndexOf(NEWLINE);
    if (newline >= 0) {
      this.lastLine.clear();
      this.lastLineCut = false;
    }
    const rest = chunk.subarray(newline + 1);
    if (this.lastLine.size + rest.length > LAST_LINE_BYTES) this.lastLineCut = true;
    this.lastLine.push(rest);
  }
}
