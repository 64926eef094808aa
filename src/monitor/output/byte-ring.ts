/** The last `capacity` bytes of a stream in one preallocated buffer: memory stays fixed however much flows through. */
export class ByteRing {
  private readonly buffer: Buffer;
  private start = 0;
  private length = 0;
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.buffer = Buffer.alloc(capacity);
  }

  get size(): number {
    return this.length;
  }

  push(chunk: Uint8Array): void {
    const capacity = this.capacity;
    if (capacity === 0) return;
    if (chunk.length >= capacity) {
      this.buffer.set(chunk.subarray(chunk.length - capacity));
      this.start = 0;
      this.length = capacity;
      return;
    }
    const end = (this.start + this.length) % capacity;
    const first = Math.min(chunk.length, capacity - end);
    this.buffer.set(chunk.subarray(0, first), end);
    this.buffer.set(chunk.subarray(first), 0);
    const overflow = Math.max(0, this.length + chunk.length - capacity);
    this.start = (this.start + overflow) % capacity;
    this.length = Math.min(capacity, this.length + chunk.length);
  }

  /** A copy of the last `maxBytes` bytes (all of them by default), oldest first. */
  read(maxBytes = this.length): Buffer {
    const count = Math.min(maxBytes, this.length);
    const from = (this.start + this.length - count) % this.capacity;
    const out = Buffer.allocUnsafe(count);
    const first = Math.min(count, this.capacity - from);
    this.buffer.copy(out, 0, from, from + first);
    this.buffer.copy(out, first, 0, count - first);
    return out;
  }

  clear(): void {
    this.start = 0;
    this.length = 0;
  }
}

/** UTF-8 text of bytes cut from a stream: a character split at either edge is dropped, not turned into U+FFFD. */
export function decodeCut(bytes: Buffer, { cutStart, cutEnd }: { cutStart: boolean; cutEnd: boolean }): string {
  let from = 0;
  if (cutStart) while (from < bytes.length && from < 3 && isContinuation(bytes[from]!)) from++;
  let to = bytes.length;
  if (cutEnd) {
    let back = to - 1;
    while (back > from && to - back < 4 && isContinuation(bytes[back]!)) back--;
    const lead = bytes[back];
    if (lead !== undefined && lead >= 0xc0 && to - back < sequenceLength(lead)) to = back;
  }
  return bytes.toString('utf8', from, to);
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  return 2;
}
