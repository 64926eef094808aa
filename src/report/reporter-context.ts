import type { Reporter } from '../run/index.js';

/** The stream a reporter writes to: stderr in practice, a fake in tests. */
export interface ReportStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface ReporterContext {
  /** progress goes here, never to stdout (stdout is for results). */
  readonly stream: ReportStream;
  /** rewrite a live status line in place; false in CI and when the stream is not a terminal. */
  readonly live: boolean;
  readonly color: boolean;
  /** ms clock for elapsed time; Date.now by default. */
  readonly now?: () => number;
}

export type ReporterFactory = (context: ReporterContext) => Reporter;
