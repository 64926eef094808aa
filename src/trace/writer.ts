import { closeSync, openSync, writeSync } from 'node:fs';
import type { EventInput, TraceEvent } from '../types/events.js';

/**
 * Appends one JSON event per line, synchronously, so a crash loses at most the event being written
 * and never leaves a half-flushed buffer. Times are ms since the attempt started, on a monotonic clock.
 */
export class TraceWriter {
  readonly events: TraceEvent[] = [];
  private readonly fd: number;
  private readonly origin: number;
  private seq = 0;
  private listeners: Array<(event: TraceEvent) => void> = [];

  readonly file: string;

  constructor(file: string, origin = performance.now()) {
    this.file = file;
    this.fd = openSync(file, 'w');
    this.origin = origin;
  }

  now(): number {
    return Math.round((performance.now() - this.origin) * 10) / 10;
  }

  /** `at` backdates an event to when it was decided (a kill is written once the tree is gone, stamped with its decision). */
  write(input: EventInput, at = this.now()): TraceEvent {
    const event = { seq: this.seq, t: at, ...input } as TraceEvent;
    this.seq += 1;
    this.events.push(event);
    writeSync(this.fd, `${JSON.stringify(event)}\n`);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  onEvent(listener: (event: TraceEvent) => void): void {
    this.listeners.push(listener);
  }

  close(): void {
    closeSync(this.fd);
  }
}
