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
    /**
     * the other threads one by one (the first 16): tid as the command sees it, name (comm), state, wait channel and the syscall
     * it is blocked in. Absent in traces written before threads were sampled one by one.
     */
    otherThreads: z
      .array(
        z
          .object({
            tid: z.number(),
            name: z.string(),
            state: z.enum(PROC_STATES),
            wchan: z.string(),
            syscall: z.object({ nr: z.number(), arg0: z.number() }).readonly().nullable(),
          })
          .readonly(),
      )
      .readonly()
      .optional(),
    threads: z.number(),
    /** CPU % over the sampling interval (100 = one core). */
    cpuPercent: z.number(),
    /** % of the interval the main thread ran or waited runnable (schedstat): high for a spinning process on a loaded machine. */
    demandPercent: z.number().optional(),
    rssKb: z.number(),
    readBytes: z.number(),
    writeBytes: z.number(),
    /** syscall number the main thread is blocked in, and its first argument (fd for read/write), when readable. */
    syscall: z.object({ nr: z.number(), arg0: z.number() }).readonly().nullable(),
    fds: z
      .object({
        pipes: z.number(),
        sockets: z.number(),
        /** descriptors on a terminal (/dev/pts/N, /dev/tty*); absent in traces written before they were counted. */
        terminals: z.number().optional(),
        total: z.number(),
      })
      .readonly(),
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
  /** who waits for whom, and what moved since the previous sample (absent in traces written before it existed). */
  readonly waits?: Waits;
}

/** A process a relation names, as it was in the same sample (host pid: the snapshot's process has its inner pid). */
export interface ProcessRef {
  readonly pid: number;
  readonly command: string;
  readonly state: ProcState;
  /** its parent is not in the tree: it was re-parented to the reaper (ppid 1 as the command sees it). */
  readonly orphan: boolean;
  /** what it does, in the monitor's words: running, stopped, sleep, pipe-read, lock, child-wait, event-loop, … */
  readonly doing: string;
}

/** A wait-for relation read from /proc: `pid` is the waiting process, the rest says on what and on whom. */
export type WaitRelation =
  /** blocked reading or writing a pipe or FIFO (or opening a FIFO): the processes holding its other end. */
  | {
      readonly kind: 'pipe';
      readonly pid: number;
      readonly direction: 'read' | 'write';
      /** the pipe's inode; 0 for a FIFO being opened (no pipe yet). */
      readonly inode: number;
      /** the FIFO's path, for a named pipe. */
      readonly fifo: string | null;
      readonly others: readonly ProcessRef[];
      /** the waiting process holds the other end itself (so a read never sees end-of-file). */
      readonly selfHeld: boolean;
    }
  /**
   * waits for a flock/fcntl lock, blocked in the kernel or polling (sleeping and retrying with the file open): the holder
   * from /proc/locks and the tree's descriptors (null when the holding process is gone).
   */
  | {
      readonly kind: 'lock';
      readonly pid: number;
      /** flock(2), a process's fcntl lock (posix), or an open file description's fcntl lock (ofd). */
      readonly lock: 'flock' | 'posix' | 'ofd';
      /** the waiter is not blocked in the kernel: it sleeps and retries (absent: blocked; absent in older traces). */
      readonly polling?: boolean;
      /** `major:minor:inode` as /proc/locks prints it, and the file's path where one of the tree has it open. */
      readonly file: string;
      readonly path: string | null;
      readonly holderPid: number | null;
      readonly holder: ProcessRef | null;
    }
  /** blocked on a socket (connect, recv, accept, or an event loop over sockets): its state, ends and queues. */
  | {
      readonly kind: 'socket';
      readonly pid: number;
      readonly proto: 'tcp' | 'tcp6' | 'unix';
      /** `ESTABLISHED`, `SYN_SENT`, `LISTEN`, `CLOSE_WAIT`, … */
      readonly state: string;
      readonly local: string;
      readonly peer: string;
      readonly rxQueue: number;
      readonly txQueue: number;
      /** another process of the tree holds the peer end (a loopback server of the same command). */
      readonly peerPid: number | null;
    }
  /** threads of one process blocked in futex waits at ~0 % CPU: two or more is what a lock-order deadlock looks like. */
  | { readonly kind: 'futex'; readonly pid: number; readonly waiting: number; readonly threads: number }
  /**
   * a process whose main thread waits on a lock (futex) at ~0 % CPU while a thread of its own, which could release it
   * (a join, a condition or event wait), is itself blocked elsewhere: in a read, an accept, a sleep. The thread's name is
   * '' when it is the process's own.
   */
  | {
      readonly kind: 'thread';
      readonly pid: number;
      readonly thread: {
        readonly tid: number;
        readonly name: string;
        readonly wchan: string;
        readonly syscall: { readonly nr: number; readonly arg0: number } | null;
      };
    }
  /** a parent in wait4 on a child that is stopped or waits for input that will not come. */
  | { readonly kind: 'child'; readonly pid: number; readonly child: ProcessRef }
  /**
   * a stopped process (T, or t under a tracer): why, as far as /proc shows it, and who of the tree waits for it. The stop
   * signal itself is in no /proc file; the cause is inferred from its process group against its terminal's foreground
   * group, its TracerPid, and the syscall it was in when the stop came.
   */
  | {
      readonly kind: 'stopped';
      readonly pid: number;
      readonly cause: StopCause;
      readonly waiters: ReadonlyArray<{
        readonly pid: number;
        readonly via: 'child' | 'pipe-read' | 'pipe-write' | 'lock';
      }>;
    }
  /** idle in its event loop (epoll) at ~0 % CPU: what of its interest list, its wait's timeout and its threads keeps it alive. */
  | { readonly kind: 'idle'; readonly pid: number; readonly keepers: readonly Keeper[] }
  /**
   * processes each waiting for the next and the last for the first, so none can move: `members[i]` waits for
   * `members[i + 1]` (the last for the first) through `via` — reading or writing a pipe the next holds the other end
   * of, a lock the next holds, or wait4 for the next, its child. `pid` is the first member.
   */
  | {
      readonly kind: 'cycle';
      readonly pid: number;
      readonly members: ReadonlyArray<{
        readonly pid: number;
        readonly via: 'pipe-read' | 'pipe-write' | 'lock' | 'child';
      }>;
    };

/**
 * Why a process is stopped. terminal: it is in a background process group of its controlling terminal (pids as the
 * command sees them), and `call` is the terminal access it was making (a read stops it by SIGTTIN; a write with tostop
 * set, or a change of the terminal's settings, by SIGTTOU), null when it was in none. tracer: TracerPid names the
 * process that stops and resumes it. signal: neither, so SIGSTOP or SIGTSTP; `signal` where it was sending one to itself.
 */
export type StopCause =
  | {
      readonly by: 'terminal';
      readonly pgid: number;
      readonly foreground: number;
      readonly call: { readonly name: 'read' | 'write' | 'ioctl'; readonly fd: number } | null;
    }
  | { readonly by: 'tracer'; readonly tracerPid: number; readonly tracer: ProcessRef | null }
  | { readonly by: 'signal'; readonly signal: string | null };

/**
 * One thing that keeps an idle event loop alive: a listening TCP socket in its interest list, an open TCP connection, an
 * inotify instance (its watches, and the watched directories that are the cwd or right below it), a timerfd, a timer
 * (the epoll wait's own timeout, named only when the interest list holds nothing else), or threads of its own idle in
 * event loops of theirs (worker threads).
 */
export type Keeper =
  | { readonly what: 'listen'; readonly address: string }
  | { readonly what: 'connection'; readonly peer: string }
  | { readonly what: 'inotify'; readonly watches: number; readonly paths: readonly string[] }
  | { readonly what: 'timerfd'; readonly nextMs: number; readonly intervalMs: number }
  | { readonly what: 'timer'; readonly dueMs: number }
  | { readonly what: 'threads'; readonly count: number };

/** What moved between the previous sample and this one, per process that was in both. */
export interface ProgressDelta {
  readonly pid: number;
  readonly cpuMs: number;
  /** rchar/wchar: bytes through read(2)/write(2), pipes included; read_bytes/write_bytes: storage I/O. */
  readonly rchar: number;
  readonly wchar: number;
  readonly readBytes: number;
  readonly writeBytes: number;
  /** bytes by which regular files it has open grew. */
  readonly filesGrew: number;
}

/**
 * A process of the command's tree that ended during the command, as the monitor saw it end: a zombie's exit status
 * (before its parent reaps it), or only that it was gone at a look, when its parent had reaped it already.
 */
export interface ProcessEnd {
  /** host pid, and the pid as the command saw it (absent when the same). */
  readonly pid: number;
  readonly innerPid?: number;
  readonly ppid: number;
  readonly command: string;
  readonly args: string;
  /** ms after the command's start of the look that found it ended, and of the last look that saw it alive. */
  readonly endedMs: number;
  readonly lastSeenMs: number;
  /** zombie: its status was read before the reap; gone: reaped before a look, so how it ended cannot be seen. */
  readonly seen: 'zombie' | 'gone';
  /** its exit code, or the signal that ended it (`SIGSEGV`); both null when seen gone. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly coreDumped?: boolean;
}

export interface Waits {
  readonly relations: readonly WaitRelation[];
  /** processes of the tree seen ending since the previous tick (absent in older traces). */
  readonly ended?: readonly ProcessEnd[];
  /** only processes where something moved. */
  readonly progress: readonly ProgressDelta[];
  /** ms the deltas cover (0 on the first sample). */
  readonly intervalMs: number;
  /** TCP data segments sent inside the command's own network namespace over the interval; null without one. */
  readonly netSegments: number | null;
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
  /**
   * when the schedule wanted it, in ms of CPU-available time after the start (elapsedMs − dueMs − cpuWaitMs is its
   * lateness); absent for a status asked for (poll).
   */
  readonly dueMs?: number;
  /** ms the load had taken from the command by this scheduled tick, which moved it that much later in wall time. */
  readonly cpuWaitMs?: number;
  /** ms since the last byte of output, or since start when there was none. */
  readonly sinceOutputMs: number;
  readonly totalOutputBytes: number;
  readonly output: TickOutput;
  readonly snapshot: TreeSnapshot;
  readonly classification: Classification;
  /** one line saying why the classification was chosen. */
  readonly reason: string;
  /** host pid of the process the reason names as the cause (the monitor's diagnosis); null when it names none. */
  readonly culprit?: number | null;
}
