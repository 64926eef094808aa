// hangbench benchmarks: every figure a percentile or a ratio, measured side by side in one run; asserts nothing.
// Run: npm run bench (builds first). BENCH_ONLY=sampling,kill runs some sections; BENCH_SMOKE=1 runs a few trials a
// section (CI). Writes <date>.{json,md} into `--out DIR` (npm run bench -- --out DIR), else bench/results/, where the
// measured records are committed (a smoke run: a temporary folder). The JSON says `smoke` and `only` (the sections
// BENCH_ONLY chose, null for all), so scripts/docs-figures.mjs quotes only a full run. A failed section fails the run.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SMOKE } from './lib/smoke.mjs';

/**
 * @typedef {{ figure: string, value: number, goal: number | string, met: boolean }} Goal
 * @typedef {{ title: string, table: string, notes: string[], data: unknown, goals: Goal[] }} SectionResult
 */

/**
 * Every file of bench/sections/ is a section, run in name order: its default export is
 * `async () => ({ title, table, notes, data, goals })`. A new section is a new file there.
 */
const sectionsDir = path.join(import.meta.dirname, 'sections');
const SECTIONS = (await readdir(sectionsDir))
  .filter((file) => file.endsWith('.mjs'))
  .sort()
  .map((file) => ({ name: path.basename(file, '.mjs'), file: path.join(sectionsDir, file) }));

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !SECTIONS.some((section) => section.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(
    `BENCH_ONLY: unknown section ${unknown.join(', ')}; sections: ${SECTIONS.map((section) => section.name).join(', ')}`,
  );
  process.exit(2);
}

const host = {
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
  cores: availableParallelism(),
  cpu: cpus()[0]?.model ?? '?',
  memoryGb: Math.round(totalmem() / 2 ** 30),
};
const startedAt = new Date();
const measuredCommit = commit();
console.log(
  `hangbench bench${SMOKE ? ' (smoke: a few trials a section)' : ''} — node ${host.node}, ${host.platform}, ${host.cores} cores (${host.cpu})`,
);
/** @type {Array<SectionResult & { name: string, seconds: number }>} */
const results = [];
/** @type {string[]} */
const failed = [];
for (const section of SECTIONS.filter((candidate) => !only || only.includes(candidate.name))) {
  const started = performance.now();
  try {
    /** @type {{ default: () => Promise<SectionResult> }} */
    const module = await import(pathToFileURL(section.file).href);
    const result = await module.default();
    const seconds = (performance.now() - started) / 1000;
    results.push({ name: section.name, seconds, ...result });
    console.log(`\n## ${result.title}\n\n${result.table}\n\n${result.notes.join('\n')}\n(${seconds.toFixed(0)} s)`);
  } catch (error) {
    // One broken section is reported and fails the run, but the others still run.
    failed.push(section.name);
    console.error(
      `\n## ${section.name}: FAILED\n\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
}

const goals = results.flatMap((result) => result.goals.map((goal) => ({ section: result.name, ...goal })));
const goalTable = [
  '| figure | measured | goal | met |',
  '|---|---|---|---|',
  ...goals.map(
    (goal) =>
      `| ${goal.figure} | ${Number(goal.value).toFixed(goal.value < 10 ? 2 : 1)} | ${goal.goal} | ${goal.met ? 'yes' : '**no**'} |`,
  ),
].join('\n');
console.log(`\n## Goals\n\n${goalTable}`);

/** The commit the bench measured, `-dirty` when tracked files other than the docs had changes; null outside git. */
function commit() {
  try {
    const git = (/** @type {string[]} */ ...args) =>
      execFileSync('git', args, { cwd: import.meta.dirname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!*.md', ':!docs/').trim();
    return `${git('rev-parse', 'HEAD').trim()}${changed === '' ? '' : '-dirty'}`;
  } catch {
    return null;
  }
}

const stamp = startedAt.toISOString().replace(/[:.]/g, '-').slice(0, 19);
const outFlag = process.argv.indexOf('--out');
const outArg = outFlag === -1 ? undefined : process.argv[outFlag + 1];
if (outFlag !== -1 && !outArg) {
  console.error('bench: --out needs a folder: npm run bench -- --out DIR');
  process.exit(2);
}
const dir = outArg
  ? path.resolve(outArg)
  : SMOKE
    ? await mkdtemp(path.join(tmpdir(), 'hangbench-bench-smoke-'))
    : path.join(import.meta.dirname, 'results');
await mkdir(dir, { recursive: true });
const totalSeconds = (Date.now() - startedAt.getTime()) / 1000;
await writeFile(
  path.join(dir, `${stamp}.json`),
  `${JSON.stringify({ startedAt: startedAt.toISOString(), totalSeconds, smoke: SMOKE, only: only ?? null, commit: measuredCommit, host, sections: results, goals }, null, 2)}\n`,
);
const markdown = [
  `# hangbench bench ${startedAt.toISOString()}`,
  '',
  `${host.cores} cores (${host.cpu}), ${host.memoryGb} GB, node ${host.node}; ${totalSeconds.toFixed(0)} s in all.`,
  '',
  '`npm run bench`',
  ...results.flatMap((result) => ['', `## ${result.title}`, '', result.table, '', ...result.notes]),
  '',
  '## Goals',
  '',
  goalTable,
  '',
].join('\n');
await writeFile(path.join(dir, `${stamp}.md`), markdown);
const shown = outArg || SMOKE ? dir : 'bench/results';
console.log(`\nresults: ${shown}/${stamp}.json and .md (${totalSeconds.toFixed(0)} s)`);
if (failed.length > 0) {
  console.error(`bench: ${failed.length} section(s) failed: ${failed.join(', ')}`);
  process.exit(1);
}
