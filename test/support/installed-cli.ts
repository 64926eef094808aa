import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, type TestContext } from 'vitest';
import { loadAdapter, type Adapter } from '../../src/agents/cli/adapter.js';
import { agentCacheDir, installDirName } from '../../src/agents/cli/install.js';
import { runEval } from '../../src/run/run-eval.js';
import { readTrace } from '../../src/scorers/index.js';
import { probeHost } from '../../src/sandbox/index.js';
import type { EventOf, TraceEvent } from '../../src/types/events.js';
import { requireCapability } from './capability.js';
import { startScriptedModel, type ModelCall, type ModelReply, type ModelStep } from './scripted-model-server.js';

/** An adapter's CLI as the installed path finds it: the pinned package's executable in the agent cache (src/agents/cli/install.ts). */
export interface InstalledCli {
  readonly adapter: Adapter;
  /** the pinned package, `name@version`. */
  readonly spec: string;
  readonly bin: string;
  readonly present: boolean;
}

export async function installedCli(name: string): Promise<InstalledCli> {
  const adapter = await loadAdapter(name);
  const spec = `${adapter.package}@${adapter.version}`;
  const bin = path.join(agentCacheDir(), installDirName(adapter), 'node_modules', '.bin', adapter.bin ?? name);
  return { adapter, spec, bin, present: existsSync(bin) };
}

const host = await probeHost();

/** The CLI in the cache and the bubblewrap jail it runs in: skips without them, or fails under CI=true (test/support/capability.ts). */
export function requireInstalledCli(ctx: Pick<TestContext, 'skip'>, cli: InstalledCli): void {
  requireCapability(ctx, 'bubblewrap', host.isolation === 'bubblewrap', 'installed agents run in the bubblewrap jail');
  requireCapability(
    ctx,
    'installed agent CLI',
    cli.present,
    `${cli.adapter.package}@${cli.adapter.version}: no ${cli.bin}`,
  );
}

/** One attempt of `cli:<name>` on a case, driven by a scripted model through the real model proxy, as the opencode test does. */
export async function runInstalled(options: {
  readonly name: string;
  readonly caseFile: string;
  readonly steps: readonly ModelStep[];
  readonly out: string;
  readonly runId: string;
  readonly wallMs: number;
  readonly settings?: Readonly<Record<string, string>>;
  readonly aside?: (call: ModelCall) => ModelReply | null;
}) {
  const model = await startScriptedModel(options.steps, options.aside ? { aside: options.aside } : {});
  try {
    const settings = Object.fromEntries(Object.entries(options.settings ?? {}).map(([name, value]) => [name, [value]]));
    // The proxy strips its own /v1 and appends the rest to the endpoint: chat CLIs send /v1/chat/completions, Claude
    // /v1/v1/messages, Gemini /v1/v1beta/models/…; the scripted model answers each by the path's end.
    const result = await runEval({
      caseInputs: [options.caseFile],
      agent: `cli:${options.name}`,
      model: 'scripted',
      baseUrl: model.url,
      settings,
      mode: 'none',
      intervalMs: 500,
      timeScale: 1,
      verifyFloorMs: 2000,
      concurrency: 1,
      out: options.out,
      runId: options.runId,
      cwd: REPO,
      budgets: { wallMs: options.wallMs },
    });
    const scores = result.summary.attempts[0]!;
    const dir = path.join(result.runDir, scores.caseId, scores.variant, String(scores.repeat));
    return { scores, events: await readTrace(path.join(dir, 'trace.jsonl')), dir, calls: model.calls };
  } finally {
    await model.close();
  }
}

/**
 * One attempt of `cli:<name>` with the built-in probe model (`--model probe`: no endpoint, no key): its wall budget is
 * the case's, raised by the harness past the CLI's own tool deadlines (the adapter's `timeouts:`).
 */
export async function runProbe(options: {
  readonly name: string;
  readonly caseFile: string;
  readonly out: string;
  readonly runId: string;
  readonly settings?: Readonly<Record<string, string>>;
}) {
  const settings = Object.fromEntries(Object.entries(options.settings ?? {}).map(([name, value]) => [name, [value]]));
  const result = await runEval({
    caseInputs: [options.caseFile],
    agent: `cli:${options.name}`,
    model: 'probe',
    settings,
    mode: 'none',
    intervalMs: 500,
    timeScale: 1,
    verifyFloorMs: 2000,
    concurrency: 1,
    out: options.out,
    runId: options.runId,
    cwd: REPO,
  });
  const scores = result.summary.attempts[0]!;
  const dir = path.join(result.runDir, scores.caseId, scores.variant, String(scores.repeat));
  return { scores, events: await readTrace(path.join(dir, 'trace.jsonl')), dir };
}

export const ofType = <K extends TraceEvent['type']>(events: readonly TraceEvent[], type: K): EventOf<K>[] =>
  events.filter((event): event is EventOf<K> => event.type === type);

/** The request bodies the proxy recorded, joined: the real key must be in none of them. */
export async function recordedBodies(dir: string, events: readonly TraceEvent[]): Promise<string> {
  const bodies = await Promise.all(
    ofType(events, 'model.request').map((request) => readFile(path.join(dir, request.bodyFile), 'utf8')),
  );
  return bodies.join('\n');
}

export const REPO = path.resolve(import.meta.dirname, '../..');
export const HANG_CASE = path.join(REPO, 'test/fixtures/installed/sleep-forever.yaml');
export const CONTROL_CASE = path.join(REPO, 'test/fixtures/installed/slow-ok.yaml');

/** The real key: in OPENAI_API_KEY while a CLI's tests run, and never in anything the agent or its model saw. */
export const REAL_KEY = 'sk-real-key-the-agent-must-never-see';

/**
 * For the test file of one CLI: a results folder of its own and the real key in OPENAI_API_KEY while its tests run;
 * after them the key is put back and the folder removed (kept with HB_KEEP). Returns the folder (set once they start).
 */
export function resultsWithRealKey(name: string): () => string {
  let out = '';
  const saved = process.env.OPENAI_API_KEY;
  beforeAll(async () => {
    out = await mkdtemp(path.join(tmpdir(), `hangbench-${name}-`));
    process.env.OPENAI_API_KEY = REAL_KEY;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
    if (!process.env.HB_KEEP && out !== '') await rm(out, { recursive: true, force: true });
  });
  return () => out;
}
