// Runs `hangbench eval` as its own process, as a user would, and watches its memory and progress from /proc.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sized } from './smoke.mjs';

export const projectRoot = path.resolve(import.meta.dirname, '../..');
const benchCases = path.join(projectRoot, 'bench/cases');

export async function scratchDir(name) {
  return mkdtemp(path.join(tmpdir(), `hangbench-bench-${name}-`));
}

/**
 * Copies of bench/cases/<name>.yaml under new ids, e.g. {idle: 30, busy: 2}: several cases whose attempts all run
 * at once; `edit` may change each copy's text.
 * @param {string} dir
 * @param {Record<string, number>} counts
 * @param {(text: string) => string} [edit]
 */
export async function caseCopies(dir, counts, edit = (text) => text) {
  const files = [];
  for (const [name, count] of Object.entries(counts)) {
    const text = await readFile(path.join(benchCases, `${name}.yaml`), 'utf8');
    for (let index = 1; index <= count; index += 1) {
      const file = path.join(dir, `${name}-${index}.yaml`);
      await writeFile(
        file,
        edit(text).replace('fixture: ../fixtures/bench', `fixture: ${path.join(projectRoot, 'bench/fixtures/bench')}`),
      );
      files.push(file);
    }
  }
  return files;
}

export const benchCase = (name) => path.join(benchCases, `${name}.yaml`);

/** The case library's files: all of cases/, or its first three in a smoke run. */
export async function libraryCases() {
  const dir = path.join(projectRoot, 'cases');
  const files = (await readdir(dir)).filter((name) => name.endsWith('.yaml')).sort();
  return files.slice(0, sized(files.length, 3)).map((name) => path.join(dir, name));
}

function procStatus(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'latin1');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { hwmKb: field('VmHWM'), rssKb: field('VmRSS') };
  } catch {
    return null;
  }
}

function procCpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * `node bin/hangbench.js eval …args --out <out>`: wall ms, the harness's peak RSS (VmHWM, its own process only —
 * sandboxed programs are other processes), its CPU seconds, and `onSample` every `everyMs` with progress.
 */
/**
 * @param {string[]} args
 * @typedef {(sample: { elapsedMs: number, rssKb: number, hwmKb: number }) => unknown} OnSample
 * @param {{ out: string, everyMs?: number, onSample?: OnSample, env?: Record<string, string>, nodeArgs?: string[] }} options
 * @returns {Promise<{ wallMs: number, peakKb: number, cpuSeconds: number, runDir: string }>}
 */
export async function runHarness(args, { out, everyMs = 250, onSample, env, nodeArgs = [] }) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(projectRoot, 'bin/hangbench.js'), 'eval', ...args, '--out', out],
    { cwd: projectRoot, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let peakKb = 0;
  let cpuSeconds = 0;
  const timer = setInterval(() => {
    const status = procStatus(child.pid);
    if (!status) return;
    peakKb = Math.max(peakKb, status.hwmKb);
    cpuSeconds = procCpuSeconds(child.pid) ?? cpuSeconds;
    onSample?.({ elapsedMs: performance.now() - started, rssKb: status.rssKb, hwmKb: status.hwmKb });
  }, everyMs);
  const code = await new Promise((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  clearInterval(timer);
  if (code !== 0) throw new Error(`hangbench eval ${args.join(' ')} exited ${code}: ${stderr}`);
  return { wallMs: performance.now() - started, peakKb, cpuSeconds, runDir: await onlyRun(out) };
}

async function onlyRun(out) {
  const [name] = await readdir(out);
  return path.join(out, name);
}

/** Every trace event of every attempt of a run folder. */
export async function traceEvents(runDir) {
  const events = [];
  for (const entry of await readdir(runDir, { recursive: true })) {
    if (!entry.endsWith('trace.jsonl')) continue;
    const text = await readFile(path.join(runDir, entry), 'utf8');
    const attempt = [];
    for (const line of text.split('\n')) if (line.trim() !== '') attempt.push(JSON.parse(line));
    events.push(attempt);
  }
  return events;
}

/** A trace's `tick` event as the Tick that tickValues() renders (the fields the monitor produced). */
export function tickOfEvent(event) {
  return {
    commandId: event.commandId,
    seq: event.tickSeq,
    elapsedMs: event.elapsedMs,
    sinceOutputMs: event.sinceOutputMs,
    totalOutputBytes: event.totalOutputBytes,
    output: event.output,
    snapshot: event.snapshot,
    classification: event.classification,
    reason: event.reason,
    culprit: event.culprit ?? null,
  };
}
