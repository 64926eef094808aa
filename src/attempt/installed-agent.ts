import { closeSync, constants, createWriteStream, writeSync, type WriteStream } from 'node:fs';
import { chmod, chown, cp, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AGENT_BASE_PATH,
  expand,
  INSIDE,
  openSandboxEndpoint,
  shellShim,
  ShimWatcher,
  startAttemptProxy,
  type Adapter,
  type InstalledAgent,
  type InstalledPackage,
  type ModelProxy,
  type SandboxEndpoint,
} from '../agents/cli/index.js';
import type { Sandbox, SandboxOptions, SandboxProcess } from '../sandbox/index.js';
import type { Case } from '../types/case.js';
import { reopenDescriptor } from '../proc/index.js';
import { DEFAULTS } from '../defaults.js';
import { withDeadline } from '../types/deadline.js';
import { ExitGrace } from './exit-grace.js';
import { ToolResultLog } from './tool-result-log.js';
import type { KillDecider } from '../types/process.js';
import type { TraceWriter } from '../trace/writer.js';
import type { AttemptSession } from './session.js';
import { COMMAND_IDS } from '../types/command-ids.js';
import { RUN_FILES } from '../types/run-files.js';

/** Host side of one attempt's installed agent: the folders bound into its jail. */
export interface InstalledAgentPlan {
  readonly hostDir: string;
  readonly binds: NonNullable<SandboxOptions['binds']>;
  readonly adapter: Adapter;
  readonly settings: Readonly<Record<string, string>>;
  readonly installed: InstalledPackage | null;
}

const AGENT_COMMAND_ID = COMMAND_IDS.installedCli;
const SETUP_COMMAND_ID = COMMAND_IDS.installedSetup;

/** The sandbox user (a root harness drops commands to nobody): it writes the shim's reports. */
const SANDBOX_USER = { uid: 65534, gid: 65534 };

/** Installs the package (once per cache) and lays out the proxy socket folder, the shim folder, the shim and the issue. */
export async function planInstalledAgent(agent: InstalledAgent, testCase: Case): Promise<InstalledAgentPlan> {
  const { adapter, settings, installed } = await agent.prepare();
  const hostDir = await realpath(await mkdtemp(path.join(tmpdir(), 'hangbench-cli-')));
  for (const dir of ['proxy', 'shim', 'task', 'bin']) await mkdir(path.join(hostDir, dir));
  await chmod(hostDir, 0o755);
  if (process.getuid?.() === 0) await chown(path.join(hostDir, 'shim'), SANDBOX_USER.uid, SANDBOX_USER.gid);
  else await chmod(path.join(hostDir, 'shim'), 0o777);
  await writeFile(path.join(hostDir, 'bin', 'bash'), shellShim(), { mode: 0o755 });
  await writeFile(path.join(hostDir, 'task', 'issue.md'), `${testCase.issue.trim()}\n`, { mode: 0o644 });
  const bash = await realpath('/usr/bin/bash');
  const binds = [
    { from: bash, to: INSIDE.realBash, writable: false },
    { from: path.join(hostDir, 'bin', 'bash'), to: '/usr/bin/bash', writable: false },
    { from: path.join(hostDir, 'task'), to: INSIDE.taskDir, writable: false },
    { from: path.join(hostDir, 'shim'), to: INSIDE.shimDir, writable: true },
    ...(installed ? [{ from: installed.dir, to: INSIDE.agentDir, writable: false }] : []),
  ];
  return { hostDir, binds, adapter, settings, installed };
}

export interface InstalledRunDeps {
  readonly agent: InstalledAgent;
  readonly plan: InstalledAgentPlan;
  readonly sandbox: Sandbox;
  readonly session: AttemptSession;
  readonly trace: TraceWriter;
  readonly tokenBudget: number;
  readonly logDir: string;
  readonly signal: AbortSignal;
  /** the proxy refused a call for the budget: the attempt stops on `tokens`. */
  readonly onOverBudget: (value: number, limit: number) => void;
  /** how long each teardown wait may take (default DEFAULTS.teardownWaitMs). */
  readonly teardownWaitMs?: number;
  /** how long the CLI may stay after its final answer before the harness ends it (default DEFAULTS.agentExitGraceMs). */
  readonly exitGraceMs?: number;
}

export interface InstalledRunResult {
  readonly tokens: number;
  /** the CLI's own exit, or null when the attempt stopped it. */
  readonly exit: { readonly exitCode: number | null; readonly signal: string | null } | null;
  /** ends what is left: observed commands by `by`, then the CLI, the endpoint and the proxy. */
  shutdown(by: KillDecider, reason: string): Promise<void>;
}

/**
 * One installed-agent attempt: the model proxy on the host, its endpoint inside the sandbox, the CLI's config written to
 * the sandbox HOME, the CLI started in the workspace with the shim observing every `bash -c` it runs — until it exits or
 * the attempt stops it. Tokens are the proxy's counts.
 */
export async function runInstalledAgent(deps: InstalledRunDeps): Promise<InstalledRunResult> {
  const { plan, trace, agent, session } = deps;
  const results = new ToolResultLog(trace);
  const grace = new ExitGrace(deps.exitGraceMs ?? DEFAULTS.agentExitGraceMs);
  const boot = new BootClock(deps);
  // What each call brings the model: each tool result the first time it is sent, and the repro's processes then.
  const onRequest = (request: number, body: unknown): void => {
    boot.up();
    grace.request();
    results.record(request, body);
    session.lookAtRepros({ at: 'model.request', request });
  };
  const proxy = await startAttemptProxy({
    agent,
    adapter: plan.adapter,
    testCase: session.testCase,
    trace,
    tokenBudget: deps.tokenBudget,
    logDir: deps.logDir,
    socketPath: path.join(plan.hostDir, 'proxy', 'model.sock'),
    onOverBudget: deps.onOverBudget,
    onRequest,
    onResponse: (_request, final) => grace.response(final),
  });
  try {
    return await startCli(deps, proxy, grace, boot);
  } catch (error) {
    await proxy.close();
    throw error;
  } finally {
    grace.dispose();
  }
}

async function startCli(
  deps: InstalledRunDeps,
  proxy: ModelProxy,
  grace: ExitGrace,
  boot: BootClock,
): Promise<InstalledRunResult> {
  const { plan, sandbox, session, trace } = deps;
  const endpoint = await openSandboxEndpoint(sandbox, path.join(plan.hostDir, 'proxy', 'model.sock'), AGENT_BASE_PATH);
  const values = placeholderValues(deps, proxy, endpoint);
  await writeAgentFiles(sandbox, plan.adapter, values).catch(async (error: unknown) => {
    await endpoint.close();
    throw error;
  });
  const watcher = new ShimWatcher({
    dir: path.join(plan.hostDir, 'shim'),
    insideDir: INSIDE.shimDir,
    hostPid: (inner) => sandbox.hostPid(inner),
    nextId: () => session.takeCommandId(),
    onStart: ({ process }) => session.observe(process, (text) => writeInto(process.shimPid, text)),
  });
  boot.start();
  const cli = sandbox.spawn(cliCommand(plan, values), { commandId: AGENT_COMMAND_ID });
  cli.stdin.end();
  const log = createWriteStream(path.join(deps.logDir, RUN_FILES.agentLog)).on(
    'error',
    (error: NodeJS.ErrnoException) => trace.fail(error),
  );
  cli.stdout.pipe(log, { end: false });
  cli.stderr.pipe(log, { end: false });
  noteStarted(trace, plan, endpoint);
  const ended = await cliExit(cli, deps.signal, grace);
  const exit = ended === 'no-exit' ? null : ended;
  if (ended !== null) recordExit(trace, plan.adapter.name, ended, grace);
  if (ended !== null) session.lookAtRepros({ at: 'agent.exit' });
  const bounded = boundedBy(trace, deps.teardownWaitMs ?? DEFAULTS.teardownWaitMs);
  const running: RunningCli = { deps, proxy, endpoint, watcher, cli, log, exit, bounded };
  return {
    tokens: proxy.tokens,
    exit,
    shutdown: (by, reason) => shutdownCli(running, by, reason),
  };
}

type CliExit = InstalledRunResult['exit'];

/** Every teardown wait is on something outside the harness: given up on after `waitMs`, and recorded. */
type Bounded = (work: Promise<unknown>, what: string, onExpire?: () => void) => Promise<void>;

/** What a started CLI's shutdown ends: the observed commands, the CLI's tree, the endpoint, the proxy and the log. */
interface RunningCli {
  readonly deps: InstalledRunDeps;
  readonly proxy: ModelProxy;
  readonly endpoint: SandboxEndpoint;
  readonly watcher: ShimWatcher;
  readonly cli: SandboxProcess;
  readonly log: WriteStream;
  readonly exit: CliExit;
  readonly bounded: Bounded;
}

/** The CLI's boot, from its start to its first model request: wall and CPU, written once as `agent.boot`. */
class BootClock {
  readonly #deps: Pick<InstalledRunDeps, 'sandbox' | 'trace'>;
  #started: { readonly t: number; readonly cpuMs: number } | null = null;
  #done = false;

  constructor(deps: Pick<InstalledRunDeps, 'sandbox' | 'trace'>) {
    this.#deps = deps;
  }

  start(): void {
    this.#started = { t: this.#deps.trace.now(), cpuMs: this.#deps.sandbox.cpuTimes().ranMs };
  }

  up(): void {
    if (this.#done || this.#started === null) return;
    this.#done = true;
    const { trace, sandbox } = this.#deps;
    trace.write({
      type: 'agent.boot',
      wallMs: Math.round(trace.now() - this.#started.t),
      cpuMs: Math.round(Math.max(0, sandbox.cpuTimes().ranMs - this.#started.cpuMs)),
    });
  }
}

/** The adapter's placeholders ({issue_file}, {base_url}, {api_key}, …), `cmd` (generic's --cmd) expanded with the rest. */
function placeholderValues(
  deps: InstalledRunDeps,
  proxy: ModelProxy,
  endpoint: SandboxEndpoint,
): Record<string, string> {
  const { plan, sandbox, agent } = deps;
  const values: Record<string, string> = {
    ...plan.settings,
    issue_file: path.join(INSIDE.taskDir, 'issue.md'),
    workspace: sandbox.workspace,
    home: '$HOME',
    model: agent.model,
    base_url: endpoint.baseUrl,
    proxy_url: endpoint.baseUrl.slice(0, -AGENT_BASE_PATH.length),
    api_key: proxy.agentKey,
  };
  values.cmd = expand(agent.cmd ?? '', values);
  return values;
}

/** The script the CLI is started by: the adapter's environment, the shim's folder, then `exec` of its command. */
function cliCommand(plan: InstalledAgentPlan, values: Readonly<Record<string, string>>): string {
  const exports = Object.entries(plan.adapter.env).map(
    ([name, value]) => `export ${name}=${shellQuote(expand(value, values))}`,
  );
  const bin = plan.installed ? [`export PATH=${INSIDE.agentDir}/node_modules/.bin:$PATH`] : [];
  return [
    ...exports,
    ...bin,
    `export HANGBENCH_OBSERVE=${INSIDE.shimDir}`,
    `exec ${expand(plan.adapter.command, values)}`,
  ].join('\n');
}

function noteStarted(trace: TraceWriter, plan: InstalledAgentPlan, endpoint: SandboxEndpoint): void {
  trace.write({
    type: 'agent.note',
    kind: 'agent',
    message: `started ${plan.adapter.name}${plan.installed ? ` (${plan.adapter.package}@${plan.adapter.version})` : ''} in the sandbox; model endpoint ${endpoint.baseUrl} (the proxy)`,
  });
  if (plan.adapter.unblockable_traffic)
    trace.write({
      type: 'agent.note',
      kind: 'agent',
      message: `${plan.adapter.name} reaches out where no setting stops it (${plan.adapter.unblockable_traffic}); the jail has no network but the model proxy, so those connects fail`,
    });
}

/**
 * The CLI's own exit; 'no-exit' when it had not exited the grace after its final answer (the harness then ends it as
 * what the finished agent left); null once the attempt is aborted first. The CLI has finished when its process exits,
 * not when its pipes reach EOF: what it left holding them is a leftover.
 */
function cliExit(cli: SandboxProcess, signal: AbortSignal, grace: ExitGrace): Promise<CliExit | 'no-exit'> {
  const exited = cli.rootExited ?? cli.exited;
  return new Promise<CliExit | 'no-exit'>((resolve) => {
    const onAbort = (): void => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    void grace.expired.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve('no-exit');
    });
    void exited.then((info) => {
      signal.removeEventListener('abort', onAbort);
      resolve({ exitCode: info.exitCode, signal: info.signal });
    });
  });
}

function recordExit(trace: TraceWriter, name: string, ended: NonNullable<CliExit> | 'no-exit', grace: ExitGrace): void {
  const afterFinalMs = grace.sinceFinalMs();
  const exit = ended === 'no-exit' ? { exitCode: null, signal: null } : ended;
  trace.write({
    type: 'agent.note',
    kind: 'agent',
    message:
      ended === 'no-exit'
        ? `${name} had not exited ${grace.graceMs} ms after its final answer: the harness ends it`
        : `${name} exited ${ended.signal ?? `with code ${ended.exitCode}`}`,
  });
  trace.write({ type: 'agent.exit', ended: ended === 'no-exit', ...exit, afterFinalMs, graceMs: grace.graceMs });
}

function boundedBy(trace: TraceWriter, waitMs: number): Bounded {
  return async (work, what, onExpire) => {
    const waited = await withDeadline(work, { what, ms: waitMs, ...(onExpire ? { onExpire } : {}) });
    if (waited.state === 'expired') trace.write({ type: 'wait.expired', what: waited.what, waitedMs: waited.waitedMs });
  };
}

/** Ends the observed commands by `by`, then what is left of the CLI's tree, the endpoint, the proxy; copies the logs. */
async function shutdownCli(running: RunningCli, by: KillDecider, reason: string): Promise<void> {
  const { deps, proxy, endpoint, watcher, cli, log, exit, bounded } = running;
  const { plan, sandbox, session, trace } = deps;
  // The observed commands first, while the watcher still delivers their exits (a kill's exit is the shim's report);
  // an exit that already happened is taken first, so the agent's tool's kill is not recorded as the harness's.
  watcher.settle();
  await session.shutdown(by, reason);
  watcher.stop();
  // What the CLI left running in its tree (a daemon it started, setsid or not, a worker holding its output) goes with it.
  const why = exit ? `${reason}: what ${plan.adapter.name} left running` : reason;
  const holding = exit !== null && !cli.done;
  const ending = (cli.killLeftovers?.(by, why) ?? cli.kill(by, reason, 'SIGTERM')).then((left) => {
    if (exit && left.treeSize > 0)
      trace.write({
        type: 'agent.note',
        kind: 'agent',
        message: `${plan.adapter.name} exited and left ${left.treeSize} process(es) running${holding ? ', holding its output' : ''}; ended with the attempt (${left.survivors.length === 0 ? 'none survived' : `survivors: ${left.survivors.join(', ')}`})`,
      });
  });
  await bounded(ending, `${plan.adapter.name}'s process tree to end`, () => sandbox.killNow());
  await bounded(endpoint.close(), `${plan.adapter.name}'s model endpoint in the sandbox to close`);
  await bounded(proxy.close(), 'the model proxy to close');
  log.end();
  await bounded(copyLogs(sandbox, plan.adapter, deps.logDir), `${plan.adapter.name}'s logs to be copied`);
  await rm(plan.hostDir, { recursive: true, force: true });
}

/** The adapter's files (its config pointing it at the proxy), written by the sandbox user under its HOME. */
async function writeAgentFiles(
  sandbox: Sandbox,
  adapter: Adapter,
  values: Readonly<Record<string, string>>,
): Promise<void> {
  for (const [index, file] of adapter.files.entries()) {
    const target = expand(file.path, { ...values, home: '' }).replace(/^\/+/, '');
    const setup = sandbox.spawn(
      'mkdir -p "$(dirname "$HOME/$HB_FILE")" && printf %s "$HB_CONTENT" > "$HOME/$HB_FILE"',
      {
        commandId: SETUP_COMMAND_ID + index,
        env: { HB_FILE: target, HB_CONTENT: expand(file.content, values) },
      },
    );
    setup.stdin.end();
    const exit = await setup.exited;
    if (exit.exitCode !== 0)
      throw new Error(
        `could not write ${adapter.name}'s ${file.path} in the sandbox (exit ${exit.exitCode ?? exit.signal})`,
      );
  }
}

/** In-band: the tick goes into the shim's stdout, the very stream the agent's tool reads the command's output from. */
function writeInto(hostPid: number, text: string): boolean {
  let fd: number | null = null;
  try {
    // Non-blocking: a full pipe the agent does not read must not stall the harness; the tick is then not delivered.
    fd = reopenDescriptor(hostPid, 1, constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK);
    return fd !== null && writeSync(fd, text) === Buffer.byteLength(text);
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

async function copyLogs(sandbox: Sandbox, adapter: Adapter, logDir: string): Promise<void> {
  for (const log of adapter.logs) {
    const source = path.join(sandbox.root, 'home', log.replace(/^\{home\}\/?/, ''));
    await cp(source, path.join(logDir, RUN_FILES.agentLogsDir, path.basename(log)), { recursive: true }).catch(
      () => undefined,
    );
  }
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
