/**
 * What the baseline (kills after 2 consecutive "hung" ticks, never edits) does on each case, pinned, with why.
 * Some hangs and healthy programs look identical from /proc (shared/hang-catalogue.md, "twins"), so it cannot
 * get all of them right; these pins say which it gets wrong. Do not tune a case to make a pin pass.
 * Every case in cases/ must have a pin (the end-to-end test checks).
 */
export type BaselinePin = { readonly interrupted: boolean; readonly why?: string } | { readonly false_kill: boolean; readonly why?: string };

export const BASELINE_PINS: Record<string, BaselinePin> = {
  'py-pipe-deadlock': { interrupted: true },
  'py-lock-order': { interrupted: true },
  'py-confirm-prompt': { interrupted: true },
  'node-server-open': { interrupted: true },
  'bash-orphan-pipe': { interrupted: true },
  'node-busy-loop': { interrupted: true },
  'py-asyncio-event': { interrupted: true },
  'node-retry-forever': { interrupted: false, why: 'a new "retrying" line every 0.5 s reads as progress; only the wall budget stops it' },
  'ctl-slow-migrations': { false_kill: false },
  'ctl-quiet-optimizer': { false_kill: true, why: 'silent 100 % CPU for 25 s is the busy-loop twin; killed at the second busy tick (20 s)' },
  'ctl-warmup-then-progress': { false_kill: false, why: 'silent for 12 s: one quiet tick, then progress before the second' },
  'py-mp-queue-join': { interrupted: true },
  'bash-fifo-no-writer': { interrupted: true },
  'py-http-no-timeout': { interrupted: true },
  'py-capture-grandchild': { interrupted: true },
  'node-promise-timer': { interrupted: true },
  'node-jest-open-handle': { interrupted: true },
  'node-readline-prompt': { interrupted: true },
  'node-dev-server': { interrupted: true },
  'node-watch-mode': { interrupted: true },
  'bash-tail-follow': { interrupted: true },
  'node-spawn-sync-child': { interrupted: true },
  'node-stream-backpressure': { interrupted: true },
  'pty-git-pager': { interrupted: true },
  'pty-git-commit-editor': { interrupted: true },
  'pty-arrow-menu': { interrupted: true },
  'pty-getpass': { interrupted: true },
  'py-threadpool-nested': { interrupted: true },
  'py-fork-with-lock': { interrupted: true },
  'py-stopped-child': { interrupted: true },
  'py-sigterm-handler': { interrupted: true },
  'py-bare-except': { interrupted: true },
  'bash-flock-stale': { interrupted: true },
  'bash-apt-lock-wait': { interrupted: false, why: 'a new "Waiting for cache lock ... Ns" line every second reads as progress; only the wall budget stops it' },
  'py-livelock': { interrupted: true },
  'perl-regex-flood': { interrupted: true },
  'bash-wait-for-marker': { interrupted: true },
  'bash-wait-for-port': { interrupted: true },
  'py-pdb-breakpoint': { interrupted: true },
  'bash-deep-descendant-read': { interrupted: true },
  'py-nondaemon-worker': { interrupted: true },
  'pty-confirm-tty': { interrupted: true },
};
