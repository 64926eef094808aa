/** What the harness was given by whoever started it, kept from every process the sandbox starts. */

/**
 * bash that closes every descriptor above 2 of its own process except `keep` (an IPC channel the child must have).
 * Node hands a child every descriptor the harness inherited without close-on-exec, as well as its stdio: a CI runner's
 * step pipe, make's jobserver, a file the harness's parent has open for writing. A process in the sandbox holding one
 * could write through it, keeps its owner waiting after the attempt (a step that never sees EOF), and shows the monitor
 * a pipe the command never had. Every process the sandbox starts goes through this first.
 */
export function closeInheritedFds(keep: readonly number[] = []): string {
  const open = ['0', '1', '2', ...keep.map((fd) => String(Math.trunc(fd)))].join('|');
  // The glob's own directory descriptor is already closed when the loop runs; closing a closed fd is not an error in bash.
  return `for fd in /proc/$$/fd/*; do fd=\${fd##*/}; case "$fd" in ${open}) ;; *) eval "exec $fd>&-";; esac; done`;
}

/** `argv` run by a bash that first closes what the harness inherited; it execs, so the spawned pid is argv's program. */
export function withoutInheritedFds(argv: readonly string[], keep: readonly number[] = []): [string, ...string[]] {
  // --norc: a socket as stdin makes `bash -c` run ~/.bashrc (launcherArgv in launcher.ts says why that must never happen).
  return ['bash', '--norc', '-c', `${closeInheritedFds(keep)}; exec "$@"`, 'hangbench-fds', ...argv];
}
