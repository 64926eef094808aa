import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadAdapter, type ProbeSpec } from '../../../src/agents/cli/adapter.js';
import { decide } from '../../../src/agents/cli/probe/policy.js';
import type { ToolExchange } from '../../../src/agents/cli/api/index.js';

/**
 * Each bundled adapter's own `probe:` block (agents/*.yaml, loaded as `--agent cli:NAME --model probe` loads it),
 * driven through the probe policy step by step with tool results in that CLI's own words, and its interrupt run for
 * real where it is a shell command: the calls name the tools the YAML names, every placeholder is filled, the repro
 * is what runs, and the kill ends a live repro. test/agents/cli/probe-model.test.ts drives hand-written specs through
 * the proxy in every API; this file checks the specs themselves.
 */

const AGENTS = path.resolve(import.meta.dirname, '../../../agents');
/** Every bundled adapter with a probe block, read as YAML here (not through the loader under test). */
const BUNDLED = readdirSync(AGENTS)
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => ({
    name: file.replace(/\.yaml$/, ''),
    file: `agents/${file}`,
    raw: parse(readFileSync(path.join(AGENTS, file), 'utf8')),
  }))
  .filter((entry): entry is { name: string; file: string; raw: { probe: RawProbe } } => entry.raw?.probe !== undefined);

interface RawProbe {
  readonly run: { tool: string };
  readonly running?: string;
  readonly poll?: { tool: string };
  readonly interrupt: { tool: string; kind: string };
  readonly finish?: string;
  readonly aside?: string;
}

/** The texts a probe block without `finish:` or `aside:` answers with (docs/installed-agents.md). */
const DEFAULT_FINISH = 'The command hung: I ran it, waited, and interrupted it.';
const DEFAULT_ASIDE = 'hangbench probe';

/**
 * What a CLI's shell tool returns for a command that still runs, as recorded from the CLI itself (the shell-tool
 * matrix, test/scorers/tool-result-reasons.test.ts), with the session id the probe must carry on: needed by every
 * adapter whose probe has `running`. A new adapter with `running` adds its own here.
 */
const STILL_RUNNING: Readonly<Record<string, { readonly result: string; readonly session: string | number | null }>> = {
  codex: {
    result:
      'Chunk ID: 067154\nWall time: 10.0015 seconds\nProcess running with session ID 18105\nOriginal token count: 20\nOutput:\ncompiling unit 3\n',
    session: 18105,
  },
  claude: {
    result:
      'compiling unit 3\nCommand did not complete within its 120s timeout and was moved to the background (ID: bcat8v3j0). Output is being written to: /tmp/x',
    session: null,
  },
  copilot: {
    result:
      'compiling unit 3\n<command with shellId: 4 is still running after 30 seconds. The command is still running. Use read_bash to check its progress, or stop_bash to stop it.>',
    session: 4,
  },
};
/** What a shell tool returns for a command that ended inside it (a plain output, no "still running" framing). */
const ENDED = 'compiling unit 3\nTerminated\n';

/** Every string in a call's arguments, arrays and objects included. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

type Call = { call: string; args: Record<string, unknown> };

function asCall(reply: unknown): Call {
  expect(reply).toEqual({ call: expect.any(String), args: expect.any(Object) });
  return reply as Call;
}

/**
 * The probe's conversation to its end: run, poll while the tool says "still running" and the wait lasts, interrupt,
 * finish; each step decided from the exchanges so far, as the proxy does for every request of the CLI.
 */
function converse(spec: ProbeSpec, repro: string, running: string | null) {
  const offered = [spec.run.tool, spec.poll?.tool, spec.interrupt.tool].filter((tool) => tool !== undefined);
  const context = { repro, waitMs: 45_000 };
  const exchanges: ToolExchange[] = [];
  const steps: Array<ReturnType<typeof decide>> = [];
  for (let turn = 0; turn < 10; turn += 1) {
    const decision = decide(spec, offered, exchanges, context);
    steps.push(decision);
    if (!('call' in decision.reply)) break;
    const { call, args } = decision.reply;
    // the repro and each poll come back still running (where the CLI can say so); the interrupt's call comes back done
    const result = decision.step === 'interrupt' ? 'ended 1 process(es)' : (running ?? ENDED);
    exchanges.push({ id: `call-${turn}`, name: call, args, result });
  }
  return steps;
}

describe.each(BUNDLED)('the probe block of $file', ({ name, raw }) => {
  const repro = 'python3 build.py --target all';

  it('loads, and runs the repro itself through the tool the YAML names, every placeholder filled', async () => {
    const spec = (await loadAdapter(name)).probe!;
    expect(spec).toBeDefined();
    const [first] = converse(spec, repro, null);
    expect(first!.step).toBe('run');
    const run = asCall(first!.reply);
    expect(run.call).toBe(raw.probe.run.tool);
    // the command the tool runs is the repro, whole
    expect(strings(run.args)).toContain(repro);
    for (const text of strings(run.args)) expect(text).not.toMatch(/\{[a-z_]+\}/);
  });

  it('polls while its tool says the command still runs, carrying the session, then interrupts, then finishes', async () => {
    const spec = (await loadAdapter(name)).probe!;
    const sample = STILL_RUNNING[name];
    if (raw.probe.running !== undefined)
      expect(sample, `add a still-running tool result of ${name} to STILL_RUNNING`).toBeDefined();
    const steps = converse(spec, repro, sample?.result ?? null);
    const names = steps.map((step) => step.step);
    // run, as many polls as the wait allows at the poll's period, the interrupt, the finish
    const polls = raw.probe.poll && sample ? Math.ceil(45_000 / Math.min(spec.poll!.every, 45_000)) : 0;
    expect(names).toEqual(['run', ...Array<string>(polls).fill('poll'), 'interrupt', 'finish']);
    for (const step of steps.filter((each) => each.step === 'poll' || each.step === 'interrupt')) {
      const call = asCall(step.reply);
      expect(call.call).toBe(step.step === 'poll' ? raw.probe.poll!.tool : raw.probe.interrupt.tool);
      for (const text of strings(call.args)) expect(text).not.toMatch(/\{[a-z_]+\}/);
      // a poll, keys and a stop act on the session the tool named (a number stays a number), not on a new one
      const onSession = step.step === 'poll' || raw.probe.interrupt.kind !== 'kill';
      if (onSession && sample !== undefined && sample.session !== null)
        expect(Object.values(call.args)).toContain(sample.session);
    }
    expect(steps.at(-1)!.reply).toEqual({ text: raw.probe.finish ?? DEFAULT_FINISH });
  });

  it('a command that ended inside the tool: a kill still ends what is left of it; keys or a stop have nothing to act on', async () => {
    const spec = (await loadAdapter(name)).probe!;
    const names = converse(spec, repro, null).map((step) => step.step);
    expect(names).toEqual(raw.probe.interrupt.kind === 'kill' ? ['run', 'interrupt', 'finish'] : ['run', 'finish']);
  });

  it('answers a call that offers no shell tool (a title, a router) with its aside text, never a tool call', async () => {
    const spec = (await loadAdapter(name)).probe!;
    const aside = decide(spec, ['generate_title'], [], { repro, waitMs: 45_000 });
    expect(aside).toMatchObject({ step: 'aside', reply: { text: raw.probe.aside ?? DEFAULT_ASIDE } });
  });
});

const ofKind = (kind: string) => BUNDLED.filter((entry) => entry.raw.probe.interrupt.kind === kind);

describe.each(ofKind('kill'))('the kill of $file', ({ name }) => {
  it('its kill, run by bash as the tool would, ends a live repro with SIGTERM and spares the shell running it', async () => {
    const spec = (await loadAdapter(name)).probe!;
    const live = `sleep 987${process.pid % 1000}.${name.length}`;
    const target = spawn('bash', ['-c', `exec ${live}`], { stdio: 'ignore' });
    let ended: NodeJS.Signals | null | 'running' = 'running';
    target.once('exit', (_code, signal) => (ended = signal));
    try {
      await expect
        .poll(async () =>
          (await promisify(execFile)('pgrep', ['-f', live]).catch(() => ({ stdout: '' }))).stdout.trim(),
        )
        .toBe(String(target.pid));
      const steps = converse(spec, live, null);
      const kill = asCall(steps.find((step) => step.step === 'interrupt')!.reply);
      // the one string of the call that is a shell command: the rest are descriptions
      const command = strings(kill.args).find((text) => /\bp(kill|grep)\b/.test(text));
      expect(command, JSON.stringify(kill.args)).toBeDefined();
      const { stdout } = await promisify(execFile)('bash', ['-c', `${command!}; echo "shell alive"`]);
      expect(stdout).toMatch(/shell alive\n$/);
      // the kill was sent before bash returned: only its delivery is awaited (a kill that missed fails here)
      await expect.poll(() => ended, { timeout: 10_000 }).toBe('SIGTERM');
    } finally {
      target.kill('SIGKILL');
    }
  });
});

describe.each(ofKind('keys'))('the keys of $file', ({ name }) => {
  const repro = 'python3 build.py --target all';

  it('its keys are a real ctrl-c (the byte 0x03, not the text \\u0003)', async () => {
    const spec = (await loadAdapter(name)).probe!;
    const steps = converse(spec, repro, STILL_RUNNING[name]?.result ?? null);
    const keys = asCall(steps.find((step) => step.step === 'interrupt')!.reply);
    expect(strings(keys.args)).toContain('\u0003');
  });
});

describe('the bundled adapters', () => {
  it('have probe blocks to check: every CLI adapter but generic', () => {
    const names = BUNDLED.map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining(['claude', 'cline', 'codex', 'gemini', 'opencode', 'pi', 'qwen']));
    expect(names).not.toContain('generic');
  });
});
