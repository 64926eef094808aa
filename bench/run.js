// hangbench benchmarks: every figure a percentile or a ratio, measured side by side in one run; asserts nothing.
// Run: npm run bench (builds first). BENCH_ONLY=sampling,kill runs some sections. Writes bench/results/<date>.{json,md}.
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, totalmem } from 'node:os';
import path from 'node:path';

/**
 * The sections, in order. Each is `async () => ({ title, table, notes, data, goals })`, imported only when it runs, so
 * BENCH_ONLY=a,b never loads (or breaks on) the others.
 */
const section = (file) => async () => (await import(`./sections/${file}.mjs`)).default();
const SECTIONS = [
  { name: 'sampling', run: section('sampling') },
  { name: 'kill', run: section('kill') },
  { name: 'ticks', run: section('ticks') },
  { name: 'overhead', run: section('overhead') },
  { name: 'memory', run: section('memory') },
  { name: 'tokens', run: section('tokens') },
  { name: 'diagnosis', run: section('diagnosis') },
  { name: 'isolation', run: section('isolation') },
  { name: 'proxy', run: section('proxy') },
];

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !SECTIONS.some((section) => section.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(`BENCH_ONLY: unknown section ${unknown.join(', ')}; sections: ${SECTIONS.map((section) => section.name).join(', ')}`);
  process.exit(2);
}

const host = { node: process.version, platform: `${process.platform}-${process.arch}`, cores: availableParallelism(), cpu: cpus()[0]?.model ?? '?', memoryGb: Math.round(totalmem() / 2 ** 30) };
const startedAt = new Date();
console.log(`hangbench bench — node ${host.node}, ${host.platform}, ${host.cores} cores (${host.cpu})`);
const results = [];
for (const section of SECTIONS.filter((candidate) => !only || only.includes(candidate.name))) {
  const started = performance.now();
  const result = await section.run();
  const seconds = (performance.now() - started) / 1000;
  results.push({ name: section.name, seconds, ...result });
  console.log(`\n## ${result.title}\n\n${result.table}\n\n${result.notes.join('\n')}\n(${seconds.toFixed(0)} s)`);
}

const goals = results.flatMap((result) => result.goals.map((goal) => ({ section: result.name, ...goal })));
const goalTable = ['| figure | measured | goal | met |', '|---|---|---|---|', ...goals.map((goal) => `| ${goal.figure} | ${Number(goal.value).toFixed(goal.value < 10 ? 2 : 1)} | ${goal.goal} | ${goal.met ? 'yes' : '**no**'} |`)].join('\n');
console.log(`\n## Goals\n\n${goalTable}`);

const stamp = startedAt.toISOString().replace(/[:.]/g, '-').slice(0, 19);
const dir = path.join(import.meta.dirname, 'results');
await mkdir(dir, { recursive: true });
const totalSeconds = (Date.now() - startedAt.getTime()) / 1000;
await writeFile(path.join(dir, `${stamp}.json`), `${JSON.stringify({ startedAt: startedAt.toISOString(), totalSeconds, host, sections: results, goals }, null, 2)}\n`);
const markdown = [`# hangbench bench ${startedAt.toISOString()}`, '', `${host.cores} cores (${host.cpu}), ${host.memoryGb} GB, node ${host.node}; ${totalSeconds.toFixed(0)} s in all.`, '', '`npm run bench`', ...results.flatMap((result) => ['', `## ${result.title}`, '', result.table, '', ...result.notes]), '', '## Goals', '', goalTable, ''].join('\n');
await writeFile(path.join(dir, `${stamp}.md`), markdown);
console.log(`\nresults: bench/results/${stamp}.json and .md (${totalSeconds.toFixed(0)} s)`);
