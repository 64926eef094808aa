import { writeFile } from 'node:fs/promises';

/**
 * A body as it passes through the proxy: its head up to the cap (what is written to the attempt's model/ folder) and a
 * rolling tail (so the usage at the end of a long stream is still read), with the total size.
 */
export class BodyCapture {
  readonly #cap: number;
  readonly #tailCap: number;
  #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  bytes = 0;

  constructor(cap: number, tailCap: number) {
    this.#cap = cap;
    this.#tailCap = tailCap;
  }

  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    const room = this.#cap - this.#headBytes;
    if (room > 0) {
      const kept = room >= chunk.length ? chunk : chunk.subarray(0, room);
      this.#head.push(kept);
      this.#headBytes += kept.length;
      if (kept.length === chunk.length) return;
      chunk = chunk.subarray(kept.length);
    }
    this.#tail.push(chunk);
    this.#tailBytes += chunk.length;
    while (this.#tail.length > 0 && this.#tailBytes - this.#tail[0]!.length >= this.#tailCap)
      this.#tailBytes -= this.#tail.shift()!.length;
  }

  /** bytes of the body not in the written file. */
  get cutBytes(): number {
    return this.bytes - this.#headBytes;
  }

  /** the written part. */
  head(): string {
    return Buffer.concat(this.#head).toString('utf8');
  }

  /** head and tail, for reading usage (a line cut between them is skipped by the reader). */
  forUsage(): string {
    return this.cutBytes === 0 ? this.head() : `${this.head()}\n${Buffer.concat(this.#tail).toString('utf8')}`;
  }
}

/** Writes the capped body and, when it was cut, a last line that says so; a refused write goes to `onFault`, never up. */
export async function writeBody(
  file: string,
  capture: BodyCapture,
  onFault: (error: NodeJS.ErrnoException) => void,
): Promise<void> {
  const note =
    capture.cutBytes > 0 ? `\n[hangbench: body cut: ${capture.cutBytes} of ${capture.bytes} bytes not written]\n` : '';
  await writeFile(file, `${capture.head()}${note}`).catch((error: NodeJS.ErrnoException) => onFault(error));
}

/** A whole body already in memory, as a capture. */
export function captured(text: string, cap: number, tailCap: number): BodyCapture {
  const capture = new BodyCapture(cap, tailCap);
  capture.add(Buffer.from(text));
  return capture;
}
