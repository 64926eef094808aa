import { DEFAULTS } from '../defaults.js';
import { IdleCpu } from './idle-cpu.js';

/** What the gate reads the machine's idle CPU from (a test gives its own). */
export interface IdleSource {
  sample(): void;
  /** idle cores over the readings kept. */
  cores(): number;
}

/**
 * The boots of installed agent CLIs (planned.boots): seconds of CPU each before its first model request, which its
 * wall budget already counts. One may start while fewer than `slots` boot, once the machine has been seen with
 * `idleCores` to spare over a window of readings all taken after the last boot began — or when nothing runs at all.
 * A boot holds its slot until released (the CLI is up, or its attempt ended) or DEFAULTS.bootWaitMs pass.
 */
export class BootGate {
  readonly #slots: number;
  readonly #idleCores: number;
  readonly #idle: IdleSource;
  readonly #timer: NodeJS.Timeout;
  #booting = 0;
  #readingsSinceBoot = Infinity;

  /** `onReading` is called after each reading, so a boot held back for want of idle CPU is looked at again. */
  constructor(slots: number, idleCores: number, onReading: () => void, idle: IdleSource = new IdleCpu(BOOT_WINDOW)) {
    this.#slots = Math.max(1, slots);
    this.#idleCores = idleCores;
    this.#idle = idle;
    this.#timer = setInterval(() => {
      this.#idle.sample();
      this.#readingsSinceBoot += 1;
      onReading();
    }, DEFAULTS.bootSampleMs);
    this.#timer.unref();
  }

  /** Whether a boot may start now, with `running` attempts running. */
  allows(running: number): boolean {
    if (this.#booting >= this.#slots) return false;
    if (running === 0) return true;
    return this.#readingsSinceBoot >= BOOT_WINDOW && this.#idle.cores() >= this.#idleCores;
  }

  /** A boot begins: returns its release (idempotent), which `onRelease` follows. */
  take(onRelease: () => void): () => void {
    this.#booting += 1;
    this.#readingsSinceBoot = 0;
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      clearTimeout(expiry);
      this.#booting -= 1;
      onRelease();
    };
    const expiry = setTimeout(release, DEFAULTS.bootWaitMs);
    expiry.unref();
    return release;
  }

  close(): void {
    clearInterval(this.#timer);
  }
}

/** readings in the idle window: the window spans (BOOT_WINDOW − 1) × DEFAULTS.bootSampleMs. */
const BOOT_WINDOW = 3;
