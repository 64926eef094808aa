import { readStat } from '../proc/index.js';
import { sendSignal } from './kill/signals.js';
import type { ProcessTree } from './kill/tree.js';

/**
 * `terminal: pty` runs the command under script(1) from util-linux: no native addon, and it does what a terminal
 * does — relays our stdin pipe to the pty master (a closed stdin becomes ^D), the master to stdout, and exits with
 * the command's status (`-e`; 128+n for a signal). The command runs in its own session with the slave as its
 * controlling terminal, so the line discipline turns a typed ^C into SIGINT for the foreground process group.
 */

const PTY_ROWS = 24;
const PTY_COLUMNS = 80;

/**
 * Run by bash as script's child, on the slave: size the terminal (a pipe-fed script leaves it 0×0, and pagers and
 * editors read the size from the kernel), drop the harness's variables, and become the command (same pid).
 */
const PTY_INIT = `stty rows ${PTY_ROWS} cols ${PTY_COLUMNS} 2>/dev/null; cmd=$HANGBENCH_CMD; unset HANGBENCH_CMD HANGBENCH_PTY_INIT; exec bash --norc -c "$cmd"`;

/** script's -c string, parsed by $SHELL: kept to one `exec` any shell understands. */
export const SCRIPT_COMMAND = 'exec bash --norc -c "$HANGBENCH_PTY_INIT"';

/** What every program in a pty sees, whatever the host's terminal: the same size and terminal type on every machine. */
export const PTY_ENV: Readonly<Record<string, string>> = {
  TERM: 'xterm-256color',
  COLUMNS: String(PTY_COLUMNS),
  LINES: String(PTY_ROWS),
};

/** The launcher's private variables for a pty command (never visible to the command itself). */
export function ptyLaunchEnv(): Record<string, string> {
  return { HANGBENCH_PTY_INIT: PTY_INIT };
}

/**
 * The terminal's foreground process group, read from any member of the tree that has the pty as controlling
 * terminal; null before script(1) forked, after the session ended, or when that group is not ours.
 */
function foregroundGroup(pids: readonly number[], rootPid: number): number | null {
  const stats = pids.filter((pid) => pid !== rootPid).map((pid) => readStat(pid));
  const member = stats.find((stat) => stat !== null && stat.ttyNr !== 0 && stat.tpgid > 0);
  const group = member?.tpgid ?? null;
  // Never signal a group that has no member in the tree: the number may belong to someone else by now.
  return group !== null && stats.some((stat) => stat?.pgid === group) ? group : null;
}

/**
 * A pty command's tree as the escalation should treat it. Ctrl-C goes where a terminal sends it: the foreground
 * process group, not script(1) (which would answer SIGINT/SIGTERM with "Session terminated" and exit 0, hiding how
 * the command ended). script is left out of TERM too: it exits by itself, with the command's status, once the
 * command is gone; SIGKILL still takes it with everything else.
 */
export function terminalTree(inner: ProcessTree): ProcessTree {
  return {
    mechanism: inner.mechanism,
    pids: () => inner.pids(),
    signalGroup: (signal) => {
      const group = foregroundGroup(inner.pids(), inner.shownRoot());
      if (group !== null) sendSignal(-group, signal);
    },
    signalEach: (pids, signal) =>
      inner.signalEach(
        pids.filter((pid) => pid !== inner.shownRoot()),
        signal,
      ),
    killAll: () => inner.killAll(),
    shownRoot: () => inner.shownRoot(),
    shownPids: () => inner.shownPids(),
  };
}
