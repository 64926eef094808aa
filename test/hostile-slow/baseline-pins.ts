/**
 * What the baseline (kills after 2 consecutive "hung" ticks, never edits) does on each case, pinned, with why.
 * Some hangs and healthy programs look identical from /proc (shared/hang-catalogue.md, "twins"), so it cannot
 * get all of them right; these pins say which it gets wrong. Do not tune a case to make a pin pass.
 * Every case in cases/ must have a pin (library.test.ts checks, at time scale 1).
 */
export type BaselinePin =
  { readonly interrupted: boolean; readonly why?: string } | { readonly false_kill: boolean; readonly why?: string };

export const BASELINE_PINS: Record<string, BaselinePin> = {
  'py-pipe-deadlock': { interrupted: true },
  'py-lock-order': { interrupted: true },
  'py-confirm-prompt': { interrupted: true },
  'node-server-open': { interrupted: true },
  'bash-orphan-pipe': { interrupted: true },
  'node-busy-loop': { interrupted: true },
  'py-asyncio-event': { interrupted: true },
  'node-retry-forever': {
    interrupted: true,
    why: 'the same "retrying … (attempt N)" line every 0.5 s with nothing else changing is a retry loop once it repeated 15 times',
  },
  'ctl-slow-migrations': { false_kill: false },
  'ctl-quiet-optimizer': {
    false_kill: true,
    why: 'silent 100 % CPU for 25 s is the busy-loop twin; killed at the second busy tick (20 s)',
  },
  'ctl-warmup-then-progress': {
    false_kill: false,
    why: 'silent for 12 s: one quiet tick, then progress before the second',
  },
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
  'bash-apt-lock-wait': {
    interrupted: true,
    why: 'the same "Waiting for cache lock ... Ns" line every second is a loop polling for the lock that its caller holds (fdinfo lock lines)',
  },
  'py-livelock': { interrupted: true },
  'perl-regex-flood': { interrupted: true },
  'bash-wait-for-marker': { interrupted: true },
  'bash-wait-for-port': { interrupted: true },
  'py-pdb-breakpoint': { interrupted: true },
  'bash-deep-descendant-read': { interrupted: true },
  'py-nondaemon-worker': { interrupted: true },
  'pty-confirm-tty': { interrupted: true },
  'ctl-node-progress-dots': { false_kill: false, why: 'a dot at least every 2.4 s: new output at every tick' },
  'ctl-node-late-output': {
    false_kill: false,
    why: 'silent for 10 s: one quiet tick, then the report before the second',
  },
  'ctl-pty-progress': { false_kill: false, why: 'the bar is redrawn every 100 ms: new output at every tick' },
  'ctl-lock-released': {
    false_kill: false,
    why: 'silent flock wait of ~10 s after early output: at most one quiet tick, then upload progress',
  },
  'ctl-retry-succeeds': {
    false_kill: false,
    why: 'a retry line every 0.5 s for ~4 s (fewer than 15 in a row), then load progress ("loaded N/60 keys"): every tick sees output that is not a loop',
  },
  'ctl-silent-download': {
    false_kill: false,
    why: 'a 27 s download with no output at all: the file it has open grows between ticks, which reads as progress',
  },
  'ctl-progress-bar': {
    false_kill: false,
    why: 'the \\r bar keeps changing: new bytes every tick, although no newline',
  },
  'ctl-many-children': {
    false_kill: false,
    why: 'one header line, then ~8 s of silent child churn: done before a second quiet tick',
  },
  'ctl-block-buffered': {
    false_kill: false,
    why: 'silent for ~8 s (block-buffered), one quiet tick, then all output at exit',
  },
  'ctl-bursty-build': { false_kill: false, why: 'gaps of at most 7 s: every 10 s tick sees output' },
  'node-vitest-watch-key': { interrupted: true },
  'node-npx-ok-to-proceed': { interrupted: true },
  'py-bare-repl': { interrupted: true, why: 'a bare python3 REPL on an open pipe: silent, blocked on stdin' },
  'node-bare-repl': {
    interrupted: true,
    why: 'node with no script reads its program from stdin until EOF: silent, blocked on stdin',
  },
  'bash-server-bg-pipe': { interrupted: true },
  'bash-bg-never-reports': { interrupted: true },
  'bash-apt-continue': { interrupted: true },
  'node-init-questionnaire': { interrupted: true },
  'ctl-watch-run-once': {
    false_kill: false,
    why: 'quiet for ~18 s inside a test file, but the runner printed before: at most one quiet tick',
  },
  'ctl-repl-fed-script': { false_kill: false },
  'ctl-server-bg-stopped': { false_kill: false },
  'ctl-bg-job-reports': { false_kill: false },
  'ctl-apt-assume-yes': {
    false_kill: false,
    why: 'an "Unpacking"/"Setting up" line every ~4 s: new output at every tick',
  },
  'pty-sudo-password': { interrupted: true },
  'pty-ssh-hostkey': { interrupted: true },
  'pty-systemctl-pager': { interrupted: true },
  'pty-git-credential': { interrupted: true },
  'py-terraform-approve': { interrupted: true },
  'node-test-child-outlives': { interrupted: true },
  'node-dev-timeout-child': { interrupted: true },
  'py-daemon-job-orphan': { interrupted: true },
  'ctl-sudo-stdin-password': {
    false_kill: false,
    why: 'silent about 14 s after its last line: one quiet tick, then output',
  },
  'ctl-ssh-known-host': {
    false_kill: false,
    why: 'silent about 14 s after its last line: one quiet tick, then output',
  },
  'ctl-systemctl-no-pager': {
    false_kill: false,
    why: 'silent about 14 s after its last line: one quiet tick, then output',
  },
  'ctl-daemon-job-finishes': {
    false_kill: false,
    why: 'silent about 14 s after its last line: one quiet tick, then output',
  },
  'git-rebase-editor-pipe': { interrupted: true },
  'ctl-land-exec-tests': {
    false_kill: false,
    why: 'git rebase --exec prints an "Executing:" line for each commit, every ~3 s: new output at every tick',
  },
  'pty-check-suite-stopped': { interrupted: true },
  'ctl-check-suite-foreground': {
    false_kill: false,
    why: 'silent about 14 s after its last line: one quiet tick, then output',
  },
  'py-export-zombie-wait': { interrupted: true },
  'ctl-export-reaped': {
    false_kill: false,
    why: 'silent about 11 s after its first line: one quiet tick, then the exporters report',
  },
  'py-indexer-crash-loop': {
    interrupted: false,
    why: 'a restart loop is named once a dead worker is caught as a zombie (SIGSEGV), but the supervisor reaps each at once (subprocess.run): one end in ~60 is caught, so the kill comes late or not at all (one run: first hung tick at 53.9 s, killed at 57.6 s, past the 45 s budget)',
  },
  'ctl-indexer-crash-reported': { false_kill: false, why: 'a progress line every ~4.5 s: new output at every tick' },
  'pty-gpg-sign-pinentry': { interrupted: true },
  'ctl-gpg-sign-loopback': {
    false_kill: false,
    why: 'silent about 12 s while staging: one quiet tick, then output',
  },
  'py-deploy-login-callback': { interrupted: true },
  'ctl-publish-token-env': {
    false_kill: false,
    why: 'silent about 12 s while uploading: one quiet tick, then output',
  },
  'py-linkcheck-serve-forever': { interrupted: true },
  'ctl-linkcheck-polite': {
    false_kill: false,
    why: 'silent about 10 s after its first line (the crawl delay): it exits 0 by the first tick, well before a second',
  },
};
