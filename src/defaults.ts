import { availableParallelism } from 'node:os';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** sandbox: how long a kill waits after the first signal, after SIGTERM and after SIGKILL before it moves on. */
const killGraces = { afterFirstMs: 300, afterTermMs: 300, afterKillMs: 2_000 } as const;
/** a whole graceful kill: first signal, TERM, KILL, each with its grace. */
const gracefulKillMs = killGraces.afterFirstMs + killGraces.afterTermMs + killGraces.afterKillMs;
/** a told-to-stop CLI is gone within this long of the signal. */
const exitWithinMs = 2_000;
/** the CLI exits regardless this long after the signal, leaving the rest of exitWithinMs to its synchronous SIGKILL pass. */
const shutdownBoundMs = exitWithinMs - 500;
const checkConcurrencyMax = 4;

/**
 * Every default in one place (case files' defaults included: types/case.ts reads them from here); options are
 * resolved once from all-optional to readonly. This file imports nothing of src/, so every layer may read it.
 */
export const DEFAULTS = {
  agent: 'baseline' as const,
  mode: 'interval' as const,
  /** the period of every mode that has one: interval's every, no-output's after, backoff's first, timeout's after. */
  intervalMs: 10_000,
  /** backoff: each gap is this many times the one before, up to maxMs. */
  backoffFactor: 2,
  backoffMaxMs: 60_000,
  timeScale: 1,
  /** eval without --concurrency: idle attempts per core (CPU-heavy ones take CPU slots, one core left free). */
  idleAttemptsPerCore: 16,
  /** eval: ms between two attempt starts, so sandbox set-up and program start-up do not all coincide. */
  startGapMs: 100,
  /**
   * eval: an installed agent CLI (`cli:*`) boots — loads its bundle, reads its config — before its first model request:
   * seconds of CPU that --time-scale does not shrink and its wall budget already counts. Such attempts start while
   * fewer than one a core are booting (scheduler.ts bootSlots: 42 booting at once on 2 cores took up to 95 s to run
   * their repro); a boot that has reached neither its first request nor its end after this many ms holds none back.
   */
  bootWaitMs: 30_000,
  /** eval: ms between two readings of the machine's idle CPU while installed CLIs wait to boot (boot-gate.ts). */
  bootSampleMs: 500,
  /**
   * eval: idle cores the machine must have shown since the last boot began before the next CLI boots. Agent CLIs are
   * not idle while they wait: 32 of them started one a core on 2 cores still drove the load to 50, and some had not
   * made their first request 180 s in.
   */
  bootIdleCores: 0.5,
  /**
   * eval: CPU ms an attempt's work takes whatever the time scale — sandbox set-up, leak scan, disposal — and each command
   * it runs (jail and interpreter start-up), agent's, verify's and gates' alike. Measured: 72 CPU-s for the library's
   * 52 oracle attempts at --time-scale 0.1, about 1.4 s an attempt of 2 agent commands and 1–3 verify steps.
   */
  attemptCpuMs: 500,
  commandCpuMs: 250,
  /** eval without --concurrency: that unscaled work may fill this share of all cores at once (the rest is headroom for bursts). */
  startupCpuShare: 0.6,
  /** check-cases without --concurrency: cases checked at once, one a core up to checkConcurrencyMax. */
  checkConcurrency: Math.max(1, Math.min(checkConcurrencyMax, availableParallelism())),
  checkConcurrencyMax,
  repeat: 1,
  out: 'results',
  /** monitor: lines in a row that repeat (only a count moving), with nothing else changing, before it calls a retry loop. */
  repeatMinLines: 15,
  /** baseline: consecutive "hung" ticks before it kills. */
  hungTicks: 2,
  /** baseline in poll mode: how long each of its waits lasts before it polls the status again. */
  pollEveryMs: 10_000,
  /** case hints are given unless a variant turns them off. */
  hints: true,
  maxTurns: 200,
  /** openai: the prompt folder under prompts/. */
  prompt: 'minimal',
  /** a prompt with `"tickTokens": "default"` (the diagnostic one) renders each tick within this many tokens. */
  tickTokens: 150,
  /** openai: one model request may take this long before it is abandoned (and retried). */
  requestTimeoutMs: 120_000,
  /** verify timeouts scale with --time-scale but never below this, so process start-up still fits. */
  verifyFloorMs: 3_000,
  /** a verify step's or gate's deadline moves by the time its processes wait for a CPU, up to this × its timeout. */
  verifyCpuWaitCap: 3,
  /** how often a verify step's or gate's processes are looked at for that wait (schedstat). */
  cpuWaitSampleMs: 50,
  /**
   * the wall budget moves by the time the attempt's processes wait for a CPU (the load took it), up to this × the
   * budget in all; a hang waiting on a pipe or a lock is not runnable, so its budget ends on time whatever the load.
   */
  wallCpuWaitCap: 3,
  /** how often the wall budget looks at that wait (one read of the attempt cgroup's cpu.pressure). */
  wallSampleMs: 250,
  /** the seed of the interleaved attempt order (and of bootstrap intervals). */
  seed: 1,
  /**
   * sandbox: each command's limits, generous enough for `node` and `python3` to behave normally, tight enough to stop
   * a runaway. Measured: Node with worker threads fails to reserve its code range below ~3 GiB of address space,
   * 8 workers need 8 GiB; plain `node -e 1` and python3 run under 1 GiB. Node's `fetch` (undici parses HTTP in
   * WebAssembly, which reserves its guard regions up front) dies at 8 GiB and works at 16 GiB: 32 GiB leaves room
   * for a few of those, and the attempt's memory cgroup is what bounds real memory.
   */
  limits: {
    processes: 512,
    addressSpaceBytes: 32 * GiB,
    // address space is per process, so four processes could take 32 GiB; this bounds the attempt as a whole
    memoryBytes: 2 * GiB,
    fileSizeBytes: 512 * MiB,
    // longer than any wall budget, so a busy-loop fixture hangs until someone kills it rather than dying of SIGXCPU
    cpuSeconds: 900,
    nice: 10,
    /** 'nice' | 'batch' | 'idle' | 'group-low' | 'group-idle': see ResourceLimits.cpuPriority and docs/performance.md. */
    cpuPriority: 'nice' as 'nice' | 'batch' | 'idle' | 'group-low' | 'group-idle',
  },
  killGraces,
  /**
   * How a stop is bounded, each from the one it must fit in: a run told to stop waits `attemptsWaitMs` for its
   * sandboxes before it writes summary.json; the CLI exits regardless at `boundMs`; it is gone by `exitWithinMs`.
   * An attempt past its wall budget gets `hardStopGraceMs` for its graceful kill before every process is SIGKILLed.
   */
  shutdown: {
    exitWithinMs,
    boundMs: shutdownBoundMs,
    // the rest of the bound is for summary.json and meta.json
    attemptsWaitMs: shutdownBoundMs - 800,
    // a graceful kill in progress ends first, with room for the tree walk that follows it
    hardStopGraceMs: gracefulKillMs + 2_400,
  },
  /** a case file's budgets when it gives none (ms): tokens, the attempt's wall clock, the kill's deadline after onset. */
  caseBudgets: { tokens: 60_000, wallMs: 300_000, interruptMs: 30_000 },
  /** a case's verify step or gate: how long it may run (scaled by --time-scale, floored at verifyFloorMs). */
  verifyTimeoutMs: 20_000,
  /** a gate: failed rounds the agent may answer before its finish is accepted anyway. */
  gateRetries: 2,
  /** each command's full output copied to its log, capped at this many bytes. */
  logCapBytes: 10 * MiB,
  /** a verify step's or gate's output: the last bytes kept in its trace event. */
  tailBytes: 2048,
  /** summaries: bootstrap intervals' resamples (2000 keeps the 2.5 % / 97.5 % ends stable to a rank or two). */
  bootstrapResamples: 2000,
  /** openai: bounded retries with exponential backoff; a `retry-after` is obeyed up to retryAfterCapMs. */
  retry: { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 8_000, retryAfterCapMs: 30_000 },
  /** check-cases: a tenth of real time unless told otherwise (a CI gate; relative timing is kept). */
  checkTimeScale: 0.1,
  /** check-cases: a hang's repro must still be running this many ticks after its onset. */
  checkHangTicks: 3,
  /** teardown: how long a command's exit (after its kill), a CLI's tree, a proxy's or endpoint's close may take before it is given up on and recorded. */
  teardownWaitMs: 5_000,
  /** capture: the tick interval, the hung ticks that end the watch, and how long a command is watched at most. */
  captureIntervalMs: 2_000,
  captureHungTicks: 2,
  captureMaxMs: 120_000,
  /** capture: the captured command's terminal, as a case's `terminal:`. */
  captureTerminal: 'pipe' as 'pipe' | 'pty',
  /** eval, check-cases, capture: bubblewrap when the host has it, else the host-user fallback with a warning. */
  isolation: 'auto' as 'auto' | 'strict',
  /** view: loopback only (traces and workspaces' output are served); port 0 is whichever one is free. */
  viewHost: '127.0.0.1',
  viewPort: 0,
  /** installed agents' model proxy: see docs/installed-agents.md. */
  modelProxy: {
    /** no byte from the endpoint for this long (before the headers or between two chunks): the call is abandoned with a 504. */
    upstreamIdleMs: 300_000,
    /** each request and response body is written to the attempt's model/ folder up to this size; the rest is cut, and said so. */
    bodyCapBytes: 8 * MiB,
    /** the end of a response kept beside the capped head, so usage at the end of a long stream is still read. */
    usageTailBytes: 64 * 1024,
    /** close(): at most this long for the server to stop and for the bodies still being written. */
    closeMs: 5_000,
  },
  /** `--model probe`: it waits this share of the case's (scaled) interrupt budget on a running command before interrupting. */
  probeWaitShare: 0.5,
  /**
   * `--model probe`: its wall budget is at least the adapter's longest own tool deadline plus this, so the tool can return
   * at its timeout and the probe still interrupt, finish and let the CLI exit (a variant's own wall budget wins).
   */
  probeTimeoutMarginMs: 60_000,
  /** an installed CLI that has not exited this long after its final answer is ended by the harness (agent_exit: ended). */
  agentExitGraceMs: 30_000,
  /** comparisons: a difference is called at this level after Holm; minimum detectable effects and plans are at this power. */
  alpha: 0.05,
  power: 0.8,
  /** eval --repeat-until decided: the metrics whose comparisons must be decided, and the most repeats it adds. */
  sequentialMetrics: ['interrupted', 'false_kill'],
  maxRepeat: 10,
} as const;
