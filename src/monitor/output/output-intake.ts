import type { Readable } from 'node:stream';
import { ByteRing, decodeCut } from './byte-ring.js';
import { CursorKeyMode } from './cursor-keys.js';
import type { LogCopy } from './log-copy.js';
import type { OnsetMatcher, OutputStream } from '../classify/onset.js';
import { OutputWindow, type WindowLimits } from './output-window.js';

/** How much of the whole output `tail()` can return, whatever the volume. */
const TAIL_CAPACITY_BYTES = 64 * 1024;
const DEFAULT_TAIL_BYTES = 4096;

/**
 * Drains stdout and stderr from the start (an unread pipe would make a fake hang) and does only
 * constant work per chunk: count, copy into fixed buffers, feed the onset matcher, copy to the log.
 * Both streams go into one window, interleaved as a terminal would show them.
 */
export class OutputIntake {
  totalBytes = 0;
  /** performance.now() of the last byte, null before the first. */
  lastOutputAt: number | null = null;
  readonly window: OutputWindow;
  readonly cursorKeys = new CursorKeyMode();
  private readonly overall = new ByteRing(TAIL_CAPACITY_BYTES);
  private unreported = 0;
  private readonly attached: Array<{ stream: Readable; listener: (chunk: Buffer | string) => void }> = [];

  private readonly onset: OnsetMatcher;
  private readonly onOnset: (trigger: string, at: number) => void;
  private readonly log: LogCopy | null;

  constructor(
    limits: WindowLimits,
    onset: OnsetMatcher,
    onOnset: (trigger: string, at: number) => void,
    log: LogCopy | null,
  ) {
    this.window = new OutputWindow(limits);
    this.onset = onset;
    this.onOnset = onOnset;
    this.log = log;
  }

  attach(stream: Readable, name: OutputStream): void {
    const listener = (data: Buffer | string): void =>
      this.accept(typeof data === 'string' ? Buffer.from(data) : data, name);
    stream.on('data', listener);
    this.attached.push({ stream, listener });
  }

  /** Stops looking at the output but keeps both streams flowing, so the program never blocks on them. */
  detach(): void {
    for (const { stream, listener } of this.attached.splice(0)) {
      stream.off('data', listener);
      stream.resume();
    }
  }

  /** Bytes received since the previous call: one `output` event's worth. */
  takeUnreported(): number {
    const bytes = this.unreported;
    this.unreported = 0;
    return bytes;
  }

  tail(maxBytes = DEFAULT_TAIL_BYTES): string {
    const bytes = this.overall.read(maxBytes);
    return decodeCut(bytes, { cutStart: this.totalBytes > bytes.length, cutEnd: false });
  }

  private accept(chunk: Buffer, name: OutputStream): void {
    if (chunk.length === 0) return;
    const now = performance.now();
    this.totalBytes += chunk.length;
    this.unreported += chunk.length;
    this.lastOutputAt = now;
    this.window.push(chunk);
    this.overall.push(chunk);
    this.log?.write(chunk);
    this.cursorKeys.feed(chunk);
    const trigger = this.onset.feed(chunk, name);
    if (trigger !== null) this.onOnset(trigger, now);
  }
}
