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

export const SIGNAL_NAMES = ['SIGINT', 'SIGTERM', 'SIGCONT', 'SIGKILL', 'SIGHUP', 'SIGQUIT'] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];

/*
 * The shapes below are zod schemas, their types inferred: the trace's events (types/events.ts) are built from the
 * same schemas, so what the sandbox and the monitor make is what a trace holds and what its reader gives back.
 */

export const SignalStepSchema = z.object({
  /** what the harness sent (a SignalName, or `cgroup.kill`), or the signal an installed agent's own tool ended it by. */
  signal: z.string(),
  /** ms since the kill decision. */
  atMs: z.number(),
  /** processes of the tree alive when the step was taken. */
  alive: z.number(),
});
export type SignalStep = z.infer<typeof SignalStepSchema>;

/** A kill is data: who, why, which signals, whether it escalated, and how long until every process was gone. */
export const KillRecordSchema = z.object({
  by: z.enum(KILL_DECIDERS),
  reason: z.string(),
  mechanism: z.enum(KILL_MECHANISMS),
  treeSize: z.number().int(),
  steps: z.array(SignalStepSchema),
  escalatedToKill: z.boolean(),
  /** ms from the decision until no process of the tree was left (zombies count as gone); null if some survived. */
  goneMs: z.number().nullable(),
  survivors: z.array(z.number()),
});
export type KillRecord = z.infer<typeof KillRecordSchema>;

export const ExitInfoSchema = z.object({
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  durationMs: z.number(),
});
export type ExitInfo = z.infer<typeof ExitInfoSchema>;

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

/** A process a relation names, as it was in the same sample (host pid: the snapshot's process has its inner pid). */
export const ProcessRefSchema = z.object({
  pid: z.number(),
  command: z.string(),
  state: z.enum(PROC_STATES),
  /** its parent is not in the tree: it was re-parented to the reaper (ppid 1 as the command sees it). */
  orphan: z.boolean(),
  /** what it does, in the monitor's words: running, stopped, sleep, pipe-read, lock, child-wait, event-loop, … */
  doing: z.string(),
});
export type ProcessRef = z.infer<typeof ProcessRefSchema>;

/**
 * Why a process is stopped. terminal: it is in a background process group of its controlling terminal (pids as the
 * command sees them), and `call` is the terminal access it was making (a read stops it by SIGTTIN; a write with tostop
 * set, or a change of the terminal's settings, by SIGTTOU), null when it was in none. tracer: TracerPid names the
 * process that stops and resumes it. signal: neither, so SIGSTOP or SIGTSTP; `signal` where it was sending one to itself.
 */
export const StopCauseSchema = z.discriminatedUnion('by', [
  z.object({
    by: z.literal('terminal'),
    pgid: z.number(),
    foreground: z.number(),
    call: z.object({ name: z.enum(['read', 'write', 'ioctl']), fd: z.number() }).nullable(),
  }),
  z.object({ by: z.literal('tracer'), tracerPid: z.number(), tracer: ProcessRefSchema.nullable() }),
  z.object({ by: z.literal('signal'), signal: z.string().nullable() }),
]);
export type StopCause = z.infer<typeof StopCauseSchema>;

/**
 * One thing that keeps an idle event loop alive: a listening TCP socket in its interest list, an open TCP connection, an
 * inotify instance (its watches, and the watched directories that are the cwd or right below it), a timerfd, a timer
 * (the epoll wait's own timeout, named only when the interest list holds nothing else), or threads of its own idle in
 * event loops of theirs (worker threads).
 */
export const KeeperSchema = z.discriminatedUnion('what', [
  z.object({ what: z.literal('listen'), address: z.string() }),
  z.object({ what: z.literal('connection'), peer: z.string() }),
  z.object({ what: z.literal('inotify'), watches: z.number(), paths: z.array(z.string()) }),
  z.object({ what: z.literal('timerfd'), nextMs: z.number(), intervalMs: z.number() }),
  z.object({ what: z.literal('timer'), dueMs: z.number() }),
  z.object({ what: z.literal('threads'), count: z.number() }),
]);
export type Keeper = z.infer<typeof KeeperSchema>;

/** A wait-for relation read from /proc: `pid` is the waiting process, the rest says on what and on whom. */
export const WaitRelationSchema = z.discriminatedUnion('kind', [
  /** blocked reading or writing a pipe or FIFO (or opening a FIFO): the processes holding its other end. */
  z.object({
    kind: z.literal('pipe'),
    pid: z.number(),
    direction: z.enum(['read', 'write']),
    /** the pipe's inode; 0 for a FIFO being opened (no pipe yet). */
    inode: z.number(),
    /** the FIFO's path, for a named pipe. */
    fifo: z.string().nullable(),
    others: z.array(ProcessRefSchema),
    /** the waiting process holds the other end itself (so a read never sees end-of-file); false in older traces. */
    selfHeld: z.boolean().default(false),
  }),
  /**
   * waits for a flock/fcntl lock, blocked in the kernel or polling (sleeping and retrying with the file open): the holder
   * from the lock table and the tree's descriptors (null when the holding process is gone).
   */
  z.object({
    kind: z.literal('lock'),
    pid: z.number(),
    /** flock(2), a process's fcntl lock (posix), or an open file description's fcntl lock (ofd). */
    lock: z.enum(['flock', 'posix', 'ofd']),
    /** the waiter is not blocked in the kernel: it sleeps and retries (absent: blocked; absent in older traces). */
    polling: z.boolean().optional(),
    /** `major:minor:inode` as the lock table prints it, and the file's path where one of the tree has it open. */
    file: z.string(),
    path: z.string().nullable(),
    holderPid: z.number().nullable(),
    holder: ProcessRefSchema.nullable(),
  }),
  /** blocked on a socket (connect, recv, accept, or an event loop over sockets): its state, ends and queues. */
  z.object({
    kind: z.literal('socket'),
    pid: z.number(),
    proto: z.enum(['tcp', 'tcp6', 'unix']),
    /** `ESTABLISHED`, `SYN_SENT`, `LISTEN`, `CLOSE_WAIT`, … */
    state: z.string(),
    local: z.string(),
    peer: z.string(),
    rxQueue: z.number(),
    txQueue: z.number(),
    /** another process of the tree holds the peer end (a loopback server of the same command). */
    peerPid: z.number().nullable(),
  }),
  /** threads of one process blocked in futex waits at ~0 % CPU: two or more is what a lock-order deadlock looks like. */
  z.object({ kind: z.literal('futex'), pid: z.number(), waiting: z.number(), threads: z.number() }),
  /** a parent in wait4 on a child that is stopped or waits for input that will not come. */
  z.object({ kind: z.literal('child'), pid: z.number(), child: ProcessRefSchema }),
  /**
   * a stopped process (T, or t under a tracer): why, as far as /proc shows it, and who of the tree waits for it. The stop
   * signal itself is in no /proc file; the cause is inferred from its process group against its terminal's foreground
   * group, its TracerPid, and the syscall it was in when the stop came.
   */
  z.object({
    kind: z.literal('stopped'),
    pid: z.number(),
    cause: StopCauseSchema,
    waiters: z.array(z.object({ pid: z.number(), via: z.enum(['child', 'pipe-read', 'pipe-write', 'lock']) })),
  }),
  /** idle in its event loop (epoll) at ~0 % CPU: what of its interest list, its wait's timeout and its threads keeps it alive. */
  z.object({ kind: z.literal('idle'), pid: z.number(), keepers: z.array(KeeperSchema) }),
  /**
   * processes each waiting for the next and the last for the first, so none can move: `members[i]` waits for
   * `members[i + 1]` (the last for the first) through `via` — reading or writing a pipe the next holds the other end
   * of, a lock the next holds, or wait4 for the next, its child. `pid` is the first member.
   */
  z.object({
    kind: z.literal('cycle'),
    pid: z.number(),
    members: z.array(z.object({ pid: z.number(), via: z.enum(['pipe-read', 'pipe-write', 'lock', 'child']) })),
  }),
  /**
   * a process whose main thread waits on a lock (futex) at ~0 % CPU while a thread of its own, which could release it
   * (a join, a condition or event wait), is itself blocked elsewhere: in a read, an accept, a sleep. The thread's name is
   * '' when it is the process's own.
   */
  z.object({
    kind: z.literal('thread'),
    pid: z.number(),
    thread: z.object({
      tid: z.number(),
      name: z.string(),
      wchan: z.string(),
      syscall: z.object({ nr: z.number(), arg0: z.number() }).nullable(),
    }),
  }),
]);
export type WaitRelation = z.infer<typeof WaitRelationSchema>;

/** What moved between the previous sample and this one, per process that was in both. */
export const ProgressDeltaSchema = z.object({
  pid: z.number(),
  cpuMs: z.number(),
  /** rchar/wchar: bytes through read(2)/write(2), pipes included; read_bytes/write_bytes: storage I/O. */
  rchar: z.number(),
  wchar: z.number(),
  readBytes: z.number(),
  writeBytes: z.number(),
  /** bytes by which regular files it has open grew. */
  filesGrew: z.number(),
});
export type ProgressDelta = z.infer<typeof ProgressDeltaSchema>;

/**
 * A process of the command's tree that ended during the command, as the monitor saw it end: a zombie's exit status
 * (before its parent reaps it), or only that it was gone at a look, when its parent had reaped it already.
 */
export const ProcessEndSchema = z.object({
  /** host pid, and the pid as the command saw it (absent when the same). */
  pid: z.number(),
  innerPid: z.number().optional(),
  ppid: z.number(),
  command: z.string(),
  args: z.string(),
  /** ms after the command's start of the look that found it ended, and of the last look that saw it alive. */
  endedMs: z.number(),
  lastSeenMs: z.number(),
  /** zombie: its status was read before the reap; gone: reaped before a look, so how it ended cannot be seen. */
  seen: z.enum(['zombie', 'gone']),
  /** its exit code, or the signal that ended it (`SIGSEGV`); both null when seen gone. */
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  coreDumped: z.boolean().optional(),
});
export type ProcessEnd = z.infer<typeof ProcessEndSchema>;

/** snapshot.waits: the wait-for relations and progress deltas of a tick. */
export const WaitsSchema = z.object({
  relations: z.array(WaitRelationSchema),
  /** only processes where something moved. */
  progress: z.array(ProgressDeltaSchema),
  /** ms the deltas cover (0 on the first sample). */
  intervalMs: z.number(),
  /** TCP data segments sent inside the command's own network namespace over the interval; null without one. */
  netSegments: z.number().nullable(),
  /** processes of the tree seen ending since the previous tick (absent in older traces). */
  ended: z.array(ProcessEndSchema).optional(),
});
export type Waits = z.infer<typeof WaitsSchema>;

export const TreeSnapshotSchema = z.object({
  /** how the tree was sampled; 'unavailable' off Linux. */
  source: z.enum(['proc', 'unavailable']),
  processes: z.array(ProcessSampleSchema),
  /** who waits for whom, and what moved since the previous sample (absent in traces written before it existed). */
  waits: WaitsSchema.optional(),
});
export type TreeSnapshot = z.infer<typeof TreeSnapshotSchema>;

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

export const TickOutputSchema = z.object({
  /** bounded text of the output since the previous tick: head + marker + tail, repeated lines folded, unfinished last line included. */
  text: z.string(),
  bytes: z.number(),
  cutBytes: z.number(),
  foldedLines: z.number(),
  /** the output ends without a newline (a prompt, a progress bar). */
  partialLine: z.boolean(),
});
export type TickOutput = z.infer<typeof TickOutputSchema>;

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
