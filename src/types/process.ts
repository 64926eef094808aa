import { z } from 'zod';

/** Shared shapes of what the sandbox runs and what the monitor sees of it. */

export const KILL_MECHANISMS = ['cgroup-v2', 'pid-namespace', 'process-group+scan'] as const;
export type KillMechanism = (typeof KILL_MECHANISMS)[number];

/** Who decided a kill: the agent, the `timeout` mode's deadline, a budget, the harness shutting down, verify, or the post-attempt leak scan. */
export const KILL_DECIDERS = ['agent', 'timeout', 'budget', 'harness', 'verify-timeout', 'leak-scan'] as const;
export type KillDecider = (typeof KILL_DECIDERS)[number];

/**
 * How an attempt's commands are isolated. 'bubblewrap': a bwrap sandbox (own PID, mount, network namespaces; the
 * project, cases and results invisible; an unprivileged user). 'host-user': the fallback, the harness's own user.
 */
export const ISOLATIONS = ['bubblewrap', 'host-user'] as const;
export type Isolation = (typeof ISOLATIONS)[number];

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

export const PROC_STATES = ['R', 'S', 'D', 'T', 't', 'Z', 'X', 'I', 'W', 'P', '?'] as const;
export type ProcState = (typeof PROC_STATES)[number];

/** One process of a sampled tree, as the monitor saw it and as traces record it. */
export const ProcessSampleSchema = z
  .object({
    /** the host pid: what the harness samples and kills. */
    pid: z.number(),
    /** the pid as the command itself sees it, inside the sandbox's PID namespace; absent when it is the same. */
    innerPid: z.number().optional(),
    ppid: z.number(),
    pgid: z.number(),
    sid: z.number(),
    /** `comm`: the short executable name. */
    command: z.string(),
    /** cmdline joined with spaces, truncated. */
    args: z.string(),
    state: z.enum(PROC_STATES),
    /** kernel wait channel of the main thread (`pipe_write`, `futex_wait_queue`, `do_epoll_wait`, …); '' when running. */
    wchan: z.string(),
    /** wait channels of the other threads, when there are any. */
    threadWchans: z.array(z.string()).readonly(),
    threads: z.number(),
    /** CPU % over the sampling interval (100 = one core). */
    cpuPercent: z.number(),
    rssKb: z.number(),
    readBytes: z.number(),
    writeBytes: z.number(),
    /** syscall number the main thread is blocked in, and its first argument (fd for read/write), when readable. */
    syscall: z.object({ nr: z.number(), arg0: z.number() }).readonly().nullable(),
    fds: z.object({ pipes: z.number(), sockets: z.number(), total: z.number() }).readonly(),
    /** true when fd 0 is the pipe the harness writes stdin to. */
    stdinIsHarnessPipe: z.boolean(),
    children: z.array(z.number()).readonly(),
  })
  .readonly();
export type ProcessSample = z.infer<typeof ProcessSampleSchema>;

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
