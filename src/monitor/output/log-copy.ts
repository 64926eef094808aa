import { createWriteStream, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { DEFAULTS } from '../../defaults.js';

export const DEFAULT_LOG_CAP_BYTES = DEFAULTS.logCapBytes;

/**
 * Copies the output stream to a file up to a cap, then writes one marker line and stops, so a
 * flood cannot fill the disk. Memory is bounded by the cap too: nothing is buffered past it.
 */
export class LogCopy {
  private readonly stream: WriteStream;
  private readonly capBytes: number;
  private written = 0;
  private truncated = false;

  constructor(path: string, capBytes: number = DEFAULT_LOG_CAP_BYTES) {
    this.capBytes = capBytes;
    this.stream = createWriteStream(path);
    // A log that cannot be written must not crash the monitor; the trace still has the tail.
    this.stream.on('error', () => {});
  }

  write(chunk: Buffer): void {
    if (this.truncated) return;
    const room = this.capBytes - this.written;
    if (chunk.length <= room) {
      this.stream.write(chunk);
      this.written += chunk.length;
      return;
    }
    if (room > 0) this.stream.write(chunk.subarray(0, room));
    this.written = this.capBytes;
    this.truncated = true;
    // Written at once, so someone reading the file while the command runs sees it too.
    this.stream.write(`\n[log truncated at ${this.capBytes} bytes]\n`);
  }

  /** Resolves once the file is flushed, or at once if it could not be written (the exit must not wait on a broken log). */
  async close(): Promise<void> {
    this.stream.end();
    // best effort: a log that cannot be written is cut short; the exit is what the attempt waits for
    await finished(this.stream).catch(() => undefined);
  }
}
