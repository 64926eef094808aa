const SET = Buffer.from('\x1b[?1h');
const RESET = Buffer.from('\x1b[?1l');

/**
 * Follows DECCKM, the mode in which a terminal sends arrow keys as `ESC O A` instead of `ESC [ A`: full-screen
 * programs (less, vim, ncurses) switch it on with `ESC [ ? 1 h` and expect the keys they asked for.
 */
export class CursorKeyMode {
  application = false;
  /** the end of the previous chunk, so a sequence split across chunks is still seen. */
  private carry: Buffer = Buffer.alloc(0);

  feed(chunk: Buffer): void {
    const data = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    const set = data.lastIndexOf(SET);
    const reset = data.lastIndexOf(RESET);
    if (set !== reset) this.application = set > reset;
    this.carry = Buffer.from(data.subarray(Math.max(0, data.length - (SET.length - 1))));
  }
}
