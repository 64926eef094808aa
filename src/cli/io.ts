/** Everything a command touches of the outside world, so commands can be run in-process by tests. */
export interface CliIO {
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number };
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** aborted on the first Ctrl-C / SIGTERM. */
  readonly shutdown: AbortSignal;
}
