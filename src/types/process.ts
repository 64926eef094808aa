/** Shared shapes of what the sandbox runs and what the monitor sees of it. */

export type KillMechanism = 'cgroup-v2' | 'pid-namespace' | 'process-group+scan';

/** Who decided a kill: the agent, the `timeout` mode's deadline, a budget, the harness shutting down, verify, or the post-attempt leak scan. */
export type KillDecider = 'agent' | 'timeout' | 'budget' | 'harness' | 'verify-timeout' | 'leak-scan';

export type SignalName = 'SIGINT' | 'SIGTERM' | 'SIGCONT' | 'SIGKILL' | 'SIGHUP' | 'SIGQUIT';

export interface SignalStep {
  readonly signal: SignalName | 'cgroup.kill';
  /** ms since the kill decision. */
  readonly atMs: number;
  /** processes of the tree alive when the step was taken. */
  readonly alive: number;
}

/** A kill is data: who, why, which signals, whether it escalated, and how long until every process was gone. */
export interface KillRecord {
  readonly by: KillDecider;
  readonly reason: string;
  readonly mechanism: KillMechanism;
  readonly treeSize: number;
  readonly steps: readonly SignalStep[];
  readonly escalatedToKill: boolean;
  /** ms from the decision until no process of the tree was left (zombies count as gone); null if some survived. */
  readonly goneMs: number | null;
  readonly survivors: readonly number[];
}

export interface ExitInfo {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
}

export type ProcState = 'R' | 'S' | 'D' | 'T' | 't' | 'Z' | 'X' | 'I' | 'W' | 'P' | '?';

export interface ProcessSample {
  /** the host pid: what the harness samples and kills. */
  readonly pid: number;
  /** the pid as the command itself sees it, inside the sandbox's PID namespace; absent when it is the same. */
  readonly innerPid?: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly sid: number;
  /** `comm`: the short executable name. */
  readonly command: string;
  /** cmdline joined with spaces, truncated. */
  readonly args: string;
  readonly state: ProcState;
  /** kernel wait channel of the main thread (`pipe_write`, `futex_wait_queue`, `do_epoll_wait`, …); '' when running. */
  readonly wchan: string;
  /** wait channels of the other threads, when there are any. */
  readonly threadWchans: readonly string[];
  readonly threads: number;
  /** CPU % over the sampling interval (100 = one core). */
  readonly cpuPercent: number;
  readonly rssKb: number;
  readonly readBytes: number;
  readonly writeBytes: number;
  /** syscall number the main thread is blocked in, and its first argument (fd for read/write), when readable. */
  readonly syscall: { readonly nr: number; readonly arg0: number } | null;
  readonly fds: { readonly pipes: number; readonly sockets: number; readonly total: number };
  /** true when fd 0 is the pipe the harness writes stdin to. */
  readonly stdinIsHarnessPipe: boolean;
  readonly children: readonly number[];
}

export interface TreeSnapshot {
  /** how the tree was sampled; 'unavailable' off Linux. */
  readonly source: 'proc' | 'unavailable';
  readonly processes: readonly ProcessSample[];
}

export const CLASSIFICATIONS = [
  'progressing',
  'busy-no-output',
  'blocked-on-stdin',
  'blocked-on-pipe',
  'deadlock-futex',
  'waiting-on-child',
  'sleeping',
  'stopped',
  'zombie',
  'output-flood',
  'exited',
] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

/** Classifications an observer would call "hung" (everything but progress and exit). */
export function looksHung(classification: Classification): boolean {
  return classification !== 'progressing' && classification !== 'exited';
}

export interface TickOutput {
  /** bounded text of the output since the previous tick: head + marker + tail, repeated lines folded, unfinished last line included. */
  readonly text: string;
  readonly bytes: number;
  readonly cutBytes: number;
  readonly foldedLines: number;
  /** the output ends without a newline (a prompt, a progress bar). */
  readonly partialLine: boolean;
}

export interface Tick {
  readonly commandId: number;
  readonly seq: number;
  readonly elapsedMs: number;
  /** when the schedule wanted it (ms after start; elapsedMs − dueMs is its lateness); absent for a status asked for (poll). */
  readonly dueMs?: number;
  /** ms since the last byte of output, or since start when there was none. */
  readonly sinceOutputMs: number;
  readonly totalOutputBytes: number;
  readonly output: TickOutput;
  readonly snapshot: TreeSnapshot;
  readonly classification: Classification;
  /** one line saying why the classification was chosen. */
  readonly reason: string;
}
