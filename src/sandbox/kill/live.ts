/** Every sandbox not yet disposed, so that an exit that cannot wait (a second Ctrl-C, a crash) still kills them all. */
const live = new Set<{ killNow(): void }>();

export function trackSandbox(sandbox: { killNow(): void }): () => void {
  live.add(sandbox);
  return () => live.delete(sandbox);
}

/** SIGKILLs every process of every live sandbox, synchronously (cgroup.kill, process groups, the marker scan). */
export function killEverySandboxNow(): number {
  for (const sandbox of live) {
    try {
      sandbox.killNow();
    } catch {
      // best effort: the process is exiting anyway
    }
  }
  return live.size;
}
