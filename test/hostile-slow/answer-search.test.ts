import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeHost } from '../../src/sandbox/index.js';
import { requireCapability } from '../support/capability.js';
import { PROJECT_ROOT } from './run-hostile.js';

// This suite runs beside fork bombs and floods: at half speed the case's verify and gates keep their footing, so
// `fixed` says what the agent could reach, not how loaded the machine was.
const TIME_SCALE = 0.5;

const bin = path.join(PROJECT_ROOT, 'bin/hangbench.js');
const thief = path.join(PROJECT_ROOT, 'test/fixtures/isolation/answer-thief.mjs');
const CASE = 'py-pipe-deadlock';
const caps = await probeHost();
const outs: string[] = [];
afterAll(async () => {
  for (const out of outs) await rm(out, { recursive: true, force: true });
});

interface ThiefRun {
  readonly code: number | null;
  readonly fixed: boolean;
  readonly isolation: string;
  /** what the agent's search command printed: the paths it found. */
  readonly found: string[];
  readonly stderr: string;
}

/** One eval of the case with the answer-searching exec agent; HANGBENCH_ISOLATION picks the isolation. */
async function steal(isolation: 'auto' | 'host-user'): Promise<ThiefRun> {
  const out = await mkdtemp(path.join(tmpdir(), 'hangbench-thief-'));
  outs.push(out);
  const env = { ...process.env, CI: '1', ...(isolation === 'host-user' ? { HANGBENCH_ISOLATION: 'host-user' } : {}) };
  const args = [
    bin,
    'eval',
    path.join(PROJECT_ROOT, 'cases', `${CASE}.yaml`),
    '--agent',
    'exec',
    '--cmd',
    `node ${thief}`,
    '--time-scale',
    String(TIME_SCALE),
    '--out',
    out,
    '--run-id',
    'thief',
    '--json',
  ];
  const child = spawn('node', args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const summary = JSON.parse(stdout) as {
    runDir: string;
    attempts: Array<{ caseId: string; variant: string; repeat: number; scores: { fixed: boolean } }>;
  };
  const attempt = summary.attempts.find((entry) => entry.caseId === CASE);
  if (attempt === undefined) throw new Error(`no attempt of ${CASE} in the summary: ${stderr}`);
  const dir = path.join(summary.runDir, CASE, attempt.variant, String(attempt.repeat));
  const trace = (await readFile(path.join(dir, 'trace.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const log = await readFile(path.join(dir, 'command-1.log'), 'utf8');
  return {
    code,
    fixed: attempt.scores.fixed,
    isolation: String(trace[0]?.isolation),
    found: log.split('\n').filter((line) => line.startsWith('/')),
    stderr,
  };
}

describe('an agent whose commands search the disk for the answer key and the hidden checks', () => {
  it('finds nothing and does not fix the case under bubblewrap', async (ctx) => {
    requireCapability(ctx, 'bubblewrap', caps.isolation === 'bubblewrap');
    const run = await steal('auto');
    expect(run.code).toBe(0);
    expect(run.isolation).toBe('bubblewrap');
    expect(run.found).toEqual([]);
    expect(run.fixed).toBe(false);
  });

  it('finds the answer key and fixes the case in the host-user fallback (the gap the README names)', async () => {
    const run = await steal('host-user');
    console.info(`host-user fallback: found ${JSON.stringify(run.found)}, fixed=${run.fixed}`);
    expect(run.isolation).toBe('host-user');
    expect(run.stderr).toMatch(/no bubblewrap sandbox/);
    expect(run.found.some((file) => file.endsWith(`/${CASE}/solution.patch`))).toBe(true);
    expect(run.fixed).toBe(true);
  });
});
