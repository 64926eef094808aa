#!/usr/bin/env node
// A measured record of one hangbench run, for the figures in README.md and docs/ (scripts/docs-figures.mjs renders
// them): node scripts/measure-run.mjs NAME -- <command…>, e.g.
//   node scripts/measure-run.mjs default-eval -- node bin/hangbench.js eval
// runs the command from the project's root (stdout and stderr pass through), then writes docs/measurements/NAME.json:
// the exact command, the date, the hangbench commit, node, the host's cores, the wall time and peak RSS, the run's
// summary.json and meta.json, and what the command printed on stdout (the terminal tables). The run folder is the one
// the command names on its last `results: DIR` line. Peak RSS twice: `harnessPeakRssMb` is the VmHWM of the
// hangbench process alone (polled every 100 ms, so a peak in its last 100 ms can be missed), `treePeakRssMb` is
// /usr/bin/time's %M (the largest single process of the tree the run waited for: a sandboxed program or an agent CLI
// can be it). --out FILE writes the record elsewhere (a test's temporary folder); the command's exit status is the
// script's, and no record is written when the run printed no results folder.
//   node scripts/measure-run.mjs NAME --from-run results/<run> -- <the command that made that run…>
// records a run made earlier instead of running anything: the command is taken as given, the commit and node from the
// run's meta.json, the wall time from its summary.json (startedAt → finishedAt), peak RSS and stdout as not measured
// (null), and `"fromRun": true` says so.
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const dash = args.indexOf('--');
const before = dash < 0 ? args : args.slice(0, dash);
const command = dash < 0 ? [] : args.slice(dash + 1);
const valueOf = (flag) => {
  const index = before.indexOf(flag);
  return index < 0 ? undefined : (before[index + 1] ?? '');
};
const outFile = valueOf('--out');
const fromRun = valueOf('--from-run');
const partial = before.includes('--partial');
const valueIndexes = ['--out', '--from-run'].map((flag) => before.indexOf(flag)).filter((index) => index >= 0);
const name = before.find((arg, index) => !arg.startsWith('--') && !valueIndexes.includes(index - 1));
if (!name || !/^[a-z0-9][a-z0-9-]*$/.test(name) || command.length === 0 || outFile === '' || fromRun === '') {
  console.error(
    'usage: node scripts/measure-run.mjs NAME [--out FILE] [--from-run RUN_DIR] -- <command…>   (NAME: lower-case, digits, -)',
  );
  process.exit(2);
}

const git = (...gitArgs) =>
  execFileSync('git', gitArgs, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
/** What a run executes (dist/ is built from src/): a change there uncommitted makes the commit `-dirty`. */
const RUN_INPUTS = [
  'src',
  'bin',
  'cases',
  'fixtures',
  'agents',
  'prompts',
  'templates',
  'package.json',
  'package-lock.json',
];
/** The commit the run measured, `-dirty` when tracked files the run uses had changes. */
const commit = () =>
  `${git('rev-parse', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no', '--', ...RUN_INPUTS) ? '-dirty' : ''}`;

/** Every descendant of pid, from /proc/<pid>/task/<tid>/children. */
function descendants(pid) {
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift();
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${next}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      let children = '';
      try {
        children = readFileSync(`/proc/${next}/task/${tid}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ').filter(Boolean).map(Number)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

const readOr = (file, fallback) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
};

/** VmHWM in kB of each hangbench process among pid's descendants (its cmdline runs bin/hangbench.js). */
function harnessHwm(pid) {
  const peaks = new Map();
  for (const child of descendants(pid)) {
    if (
      !readOr(`/proc/${child}/cmdline`, '')
        .split('\0')
        .some((arg) => arg.endsWith('bin/hangbench.js'))
    )
      continue;
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readOr(`/proc/${child}/status`, ''));
    if (hwm) peaks.set(child, Number(hwm[1]));
  }
  return peaks;
}

const quoted = command.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`));
const measured = fromRun ? await recordOf(fromRun) : await measure();
const target = outFile ? path.resolve(outFile) : path.join(root, 'docs', 'measurements', `${name}.json`);
mkdirSync(path.dirname(target), { recursive: true });
// One top-level field a line, each value compact: the header fields read at a glance, the run's files stay small.
const fields = Object.entries(measured.record).map(
  ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`,
);
writeFileSync(target, `{\n${fields.join(',\n')}\n}\n`);
const { record } = measured;
console.error(
  `measure-run: ${path.relative(root, target)} — ${record.wallSeconds} s, harness peak ${record.harnessPeakRssMb} MB, tree peak ${record.treePeakRssMb} MB (exit ${record.exitCode})`,
);
process.exitCode = measured.exitCode;

/** The record's common part: what ran, from which run folder. */
function common(full) {
  return {
    name,
    command: quoted.join(' '),
    reproduce: `node scripts/measure-run.mjs ${name} -- ${quoted.join(' ')}`,
    runDir: path.relative(root, full).startsWith('..') ? full : path.relative(root, full),
    meta: JSON.parse(readFileSync(path.join(full, 'meta.json'), 'utf8')),
    summary: JSON.parse(readFileSync(path.join(full, 'summary.json'), 'utf8')),
  };
}

/** When the newest score.json of a run folder was written (ms since the epoch). */
function lastScoreAt(dir) {
  let last = 0;
  for (const caseDir of readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()))
    for (const variant of readdirSync(path.join(dir, caseDir.name)))
      for (const repeat of readdirSync(path.join(dir, caseDir.name, variant))) {
        const score = path.join(dir, caseDir.name, variant, repeat, 'score.json');
        if (existsSync(score)) last = Math.max(last, statSync(score).mtimeMs);
      }
  return last;
}

/** A finished run folder made earlier, recorded as it is. */
async function recordOf(dir) {
  const full = path.resolve(dir);
  const { meta, summary, ...rest } = common(full);
  // --partial: a run stopped before its end (Ctrl-C) is recorded as such, its wall time to its last attempt's end.
  const stopped = !summary.finishedAt || summary.interrupted;
  if (stopped && !partial) {
    console.error(
      `measure-run: ${dir} did not finish (finishedAt ${summary.finishedAt}, interrupted ${summary.interrupted})`,
    );
    process.exit(1);
  }
  return {
    exitCode: 0,
    record: {
      ...rest,
      fromRun: true,
      date: summary.startedAt,
      commit: meta.versions.gitSha ?? null,
      node: meta.versions.node,
      cores: meta.host.cores ?? null,
      cpu: null,
      platform: meta.versions.platform,
      exitCode: null,
      wallSeconds:
        Math.round(
          ((stopped ? lastScoreAt(full) : Date.parse(summary.finishedAt)) - Date.parse(summary.startedAt)) / 100,
        ) / 10,
      ...(stopped ? { stopped: { attempts: summary.attempts.length, planned: meta.order?.length ?? null } } : {}),
      harnessPeakRssMb: null,
      treePeakRssMb: null,
      meta,
      summary,
      stdout: null,
    },
  };
}

/** Runs the command, measuring it. */
async function measure() {
  const startedAt = new Date();
  const measuredCommit = commit();
  const scratch = mkdtempSync(path.join(tmpdir(), 'hangbench-measure-'));
  const timeFile = path.join(scratch, 'time.txt');
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-o', timeFile, '-f', '%e %M', ...command], {
    cwd: root,
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    process.stdout.write(chunk);
  });
  /** The highest VmHWM seen of the hangbench process (the first one found: the run's own, not a child it starts). */
  let harness = { pid: null, kb: 0 };
  // The tree is walked only until the harness is found: a matrix run's tree has thousands of CLI threads, and walking
  // it every 100 ms cost a tenth of a core of the machine being measured.
  const poll = setInterval(() => {
    if (harness.pid !== null) {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readOr(`/proc/${harness.pid}/status`, ''));
      if (hwm) harness.kb = Math.max(harness.kb, Number(hwm[1]));
      return;
    }
    for (const [pid, kb] of harnessHwm(child.pid)) {
      if (harness.pid === null) harness = { pid, kb };
      if (pid === harness.pid) harness.kb = Math.max(harness.kb, kb);
    }
  }, 100);
  const exitCode = await new Promise((resolve) =>
    child.on('close', (code, signal) => resolve(code ?? 128 + (signal ? 1 : 0))),
  );
  clearInterval(poll);
  const wallSeconds = (performance.now() - started) / 1000;
  const [, treeKb] = readOr(timeFile, '').trim().split('\n').at(-1).split(' ').map(Number);
  rmSync(scratch, { recursive: true, force: true });

  const runDir = [...stdout.matchAll(/^results: (.+)$/gm)].at(-1)?.[1];
  if (!runDir) {
    console.error(`measure-run: the command printed no "results: DIR" line (exit ${exitCode}); no record written`);
    process.exit(exitCode === 0 ? 1 : exitCode);
  }
  const full = path.resolve(root, runDir);
  return {
    exitCode,
    record: {
      ...common(full),
      fromRun: false,
      date: startedAt.toISOString(),
      commit: measuredCommit,
      node: process.version,
      cores: availableParallelism(),
      cpu: cpus()[0]?.model ?? '?',
      platform: `${process.platform}-${process.arch}`,
      exitCode,
      wallSeconds: Math.round(wallSeconds * 10) / 10,
      harnessPeakRssMb: harness.pid === null ? null : Math.round(harness.kb / 1024),
      treePeakRssMb: Number.isFinite(treeKb) ? Math.round(treeKb / 1024) : null,
      stdout,
    },
  };
}
