import { closeSync, openSync, writeSync } from 'node:fs';
import type { EventInput, TraceEvent } from '../types/events.js';

/**
 * Appends one JSON event per line, synchronously, so a crash loses at most the event being written
 * and never leaves a half-flushed buffer. Times are ms since the attempt started, on a monotonic clock.
 *
 * A write the disk refuses (full, read-only, gone) never throws into the caller — a monitor, a kill, the agent loop:
 * the writer stops writing, keeps every event in memory (the attempt can still be scored and stopped) and tells its
 * fault listeners once.
 */
export class TraceWriter {
  readonly events: TraceEvent[] = [];
  private readonly fd: number;
  private readonly origin: number;
  private seq = 0;
  private listeners: Array<(event: TraceEvent) => void> = [];
  private faultListeners: Array<(error: NodeJS.ErrnoException) => void> = [];
  private failure: NodeJS.ErrnoException | null = null;

  readonly file: string;

  constructor(file: string, origin = performance.now()) {
    this.file = file;
    this.fd = openSync(file, 'w');
    this.origin = origin;
  }

  now(): number {
    return Math.round((performance.now() - this.origin) * 10) / 10;
  }

  /** The first write the disk refused, or null. */
  get fault(): NodeJS.ErrnoException | null {
    return this.failure;
  }

  /** `at` backdates an event to when it was decided (a kill is written once the tree is gone, stamped with its decision). */
  write(input: EventInput, at = this.now()): TraceEvent {
    const event = { seq: this.seq, t: at, ...input } as TraceEvent;
    this.seq += 1;
    this.events.push(event);
    if (this.failure === null) {
      try {
        writeSync(this.fd, `${JSON.stringify(event)}\n`);
      } catch (error) {
        this.fail(error as NodeJS.ErrnoException);
      }
    }
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // a listener (a reporter's tick hook) is not the trace: the event is written either way
      }
    }
    return event;
  }

  onEvent(listener: (event: TraceEvent) => void): void {
    this.listeners.push(listener);
  }

  onFault(listener: (error: NodeJS.ErrnoException) => void): void {
    this.faultListeners.push(listener);
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch (error) {
      // close reports a deferred write error (EIO, ENOSPC on some filesystems): the trace is then incomplete
      this.fail(error as NodeJS.ErrnoException);
    }
  }

  /** Another write of the attempt's results (a model body) that the disk refused: the same fault as a refused event. */
  fail(error: NodeJS.ErrnoException): void {
    if (this.failure !== null) return;
    this.failure = error;
    for (const listener of this.faultListeners) {
      try {
        listener(error);
      } catch {
        // the fault is recorded in `fault` whatever a listener does
      }
    }
  }
}
