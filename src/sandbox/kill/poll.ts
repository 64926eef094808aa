/** How often a kill in progress re-lists the tree; reading cgroup.procs costs tens of µs. */
export const POLL_MS = 5;
