/**
 * The wait for an installed CLI to exit after its final answer (anomalyco/opencode#44901: runs alive for days after it):
 * each final answer starts the grace again, any later model call cancels it (the CLI went on working), and `expired`
 * resolves once a grace runs out with no call in between.
 */
export class ExitGrace {
  readonly graceMs: number;
  readonly expired: Promise<void>;
  #timer: NodeJS.Timeout | null = null;
  #finalAt: number | null = null;
  #expire!: () => void;

  constructor(graceMs: number) {
    this.graceMs = graceMs;
    this.expired = new Promise<void>((resolve) => {
      this.#expire = resolve;
    });
  }

  /** ms since the last final answer, or null when the CLI gave none. */
  sinceFinalMs(): number | null {
    return this.#finalAt === null ? null : Math.round(performance.now() - this.#finalAt);
  }

  request(): void {
    this.#clear();
  }

  response(final: boolean): void {
    this.#clear();
    if (!final) return;
    this.#finalAt = performance.now();
    this.#timer = setTimeout(() => this.#expire(), this.graceMs);
    this.#timer.unref();
  }

  dispose(): void {
    this.#clear();
  }

  #clear(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
