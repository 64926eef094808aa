#!/usr/bin/env node
// Figures in README.md and docs/ live between markers, each rendered by a generator below:
//   <!-- figure:NAME -->
//   …generated text…
//   <!-- /figure:NAME -->
// `node scripts/docs-figures.mjs` (npm run docs:figures) rewrites every marked block; `--check` rewrites nothing and
// exits 1 naming each block that differs from what its source gives (CI runs that). The sources: the project as it is
// (the case library, the tarball), the newest full bench record in bench/results/ (a run with `"smoke": false` and
// `"only": null`, written by `npm run bench`), and the run records in docs/measurements/ (written by
// `node scripts/measure-run.mjs NAME -- <command…>`, which a figure always quotes). No generator runs an eval: a figure
// that needs a run is rendered from its record, or left out. `--dir DIR` reads the docs and records from DIR instead
// of the project (a test's temporary copy); the case library and dist/ still come from the project.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const dirFlag = process.argv.indexOf('--dir');
const base = dirFlag < 0 ? root : path.resolve(process.argv[dirFlag + 1] ?? '.');
const FILES = [
  'README.md',
  'docs/api.md',
  'docs/performance.md',
  'docs/isolation.md',
  'docs/diagnosis.md',
  'docs/installed-agents.md',
  'docs/sweeps.md',
  'docs/cli.md',
];

const { loadCases } = await import(path.join(root, 'dist/cases/load-cases.js'));
const { caseClass } = await import(path.join(root, 'dist/types/case.js'));
const { sourceLabel } = await import(path.join(root, 'dist/cases/source-label.js'));
const { formatDuration } = await import(path.join(root, 'dist/types/duration.js'));
const { compareRuns } = await import(path.join(root, 'bench/compare-runs.mjs'));
const { renderMarkdown } = await import(path.join(root, 'dist/report/markdown/markdown.js'));
const { COMMAND_FLAGS, renderFlagsMarkdown } = await import(path.join(root, 'dist/cli/flags/index.js'));

// ---- records -------------------------------------------------------------------------------------------------------

const records = new Map();
/** docs/measurements/NAME.json, as scripts/measure-run.mjs wrote it. */
function record(name) {
  if (!records.has(name)) {
    const file = path.join(base, 'docs', 'measurements', `${name}.json`);
    if (!existsSync(file))
      throw new Error(
        `docs/measurements/${name}.json is missing: run node scripts/measure-run.mjs ${name} -- <command>`,
      );
    records.set(name, JSON.parse(readFileSync(file, 'utf8')));
  }
  return records.get(name);
}

let bench;
/** The newest bench record of a full run: not BENCH_SMOKE, not BENCH_ONLY. Older records say neither and are skipped. */
function benchRecord() {
  if (bench) return bench;
  const dir = path.join(base, 'bench', 'results');
  const full = readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ file: `bench/results/${file}`, ...JSON.parse(readFileSync(path.join(dir, file), 'utf8')) }))
    .filter((candidate) => candidate.smoke === false && candidate.only === null);
  if (full.length === 0)
    throw new Error('bench/results/ has no full run (smoke: false, only: null): run npm run bench');
  bench = full.at(-1);
  return bench;
}

const short = (commit) => (commit ? `${commit.slice(0, 7)}${commit.endsWith('-dirty') ? '-dirty' : ''}` : 'unknown');
const day = (iso) => iso.slice(0, 10);
/** 224 → "3 min 44 s", 47 → "47 s" */
function minSec(seconds) {
  const whole = Math.round(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${whole % 60} s`;
}
const frac = (rate) => (rate.total === 0 ? '–' : `${rate.count}/${rate.total}`);
const file = (name) => `docs/measurements/${name}.json`;
/** Where a run's figures come from, and the command that records them again. */
const madeBy = (name) => {
  const run = record(name);
  const where = [
    day(run.date),
    run.cores ? `${run.cores} cores` : null,
    `node ${run.node}`,
    `commit ${short(run.commit)}`,
  ];
  const from = run.stopped
    ? `, recorded from its run folder after it was stopped with ${run.stopped.attempts} of ${run.stopped.planned ?? '?'} attempts finished`
    : run.fromRun
      ? ', recorded from its finished run folder'
      : '';
  return `\`${file(name)}\` of ${where.filter(Boolean).join(', ')}${from}; again: \`${run.reproduce}\``;
};
const benchMadeBy = () => {
  const b = benchRecord();
  return `\`${b.file}\`: \`npm run bench\` on ${day(b.startedAt)}, ${Math.round(b.totalSeconds)} s in all, ${b.host.cores} cores (${b.host.cpu}, ${b.host.memoryGb} GB), node ${b.host.node}, commit ${short(b.commit)}`;
};
const only = (run) => {
  if (run.summary.groups.length !== 1)
    throw new Error(`${run.name}: expected one variant, found ${run.summary.groups.length}`);
  return run.summary.groups[0];
};
const caseCount = (run) => new Set(run.summary.attempts.map((attempt) => attempt.caseId)).size;

/** The stdout of a run split into its tables (blank-line separated), rule lines (─) dropped. */
function stdoutTables(run) {
  return run.stdout
    .split(/\n\s*\n/)
    .map((block) => block.split('\n').filter((line) => line.trim() !== '' && !/^─+$/.test(line.trim())));
}

/** Per-case outcome agreement of two run records, by bench/compare-runs.mjs over their summary.json. */
async function agreement(a, b) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hangbench-figures-'));
  try {
    for (const [name, run] of [
      ['a', a],
      ['b', b],
    ]) {
      execFileSync('mkdir', ['-p', path.join(dir, name)]);
      writeFileSync(path.join(dir, name, 'summary.json'), JSON.stringify(run.summary));
    }
    return await compareRuns(path.join(dir, 'a'), path.join(dir, 'b'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One section of the newest full bench run: its table and notes. */
function benchSection(name) {
  const b = benchRecord();
  const section = b.sections.find((candidate) => candidate.name === name);
  if (!section) throw new Error(`${b.file} has no ${name} section (it failed or did not run)`);
  return [`From ${benchMadeBy()}:`, '', section.table, '', ...section.notes].join('\n');
}

/** A rendered Markdown section's lines, heading dropped: from its heading (by prefix) to the next heading of its level or above, or a <details>. */
function markdownSection(markdown, heading) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  if (start < 0) throw new Error(`no "${heading}" section in the rendered report`);
  const level = heading.split(' ')[0];
  const end = lines.findIndex(
    (line, index) =>
      index > start &&
      (line.startsWith('<details>') || (/^#+ /.test(line) && line.split(' ')[0].length <= level.length)),
  );
  const body = lines.slice(start + 1, end < 0 ? undefined : end);
  while (body.length > 0 && body[0].trim() === '') body.shift();
  while (body.length > 0 && body.at(-1).trim() === '') body.pop();
  return body;
}

// ---- shell tools ---------------------------------------------------------------------------------------------------

const END_TEXT = {
  'returned-running': 'returned it running',
  'killed-tree': 'killed the tree',
  'killed-leader': 'killed the leader only',
  exited: 'it exited',
  'ended-by-harness': 'the harness ended it',
  'budget-first': 'the budget ended it first',
  'never-returned': 'never returned',
};

/** One cell: how the tool ended the repro, when its result reached the model (p50), what was left alive then. */
function shellToolCell(row) {
  if (!row) return '–';
  const ends = Object.entries(row.ends);
  const how =
    ends.length === 0
      ? 'not observed'
      : ends.length === 1 && ends[0][1] === row.attempts
        ? END_TEXT[ends[0][0]]
        : ends.map(([end, n]) => `${END_TEXT[end]} ${n}/${row.attempts}`).join(', ');
  const when = row.returned === 0 || row.toolReturnMs.p50 === null ? '' : ` (${formatDuration(row.toolReturnMs.p50)})`;
  const some = row.returned > 0 && row.returned < row.attempts ? `; returned ${row.returned}/${row.attempts}` : '';
  const left = row.returned > 0 && row.leftAfterTool !== null ? `; ${row.leftAfterTool} left` : '';
  // A budget that ended the attempt before the tool's own deadline says so with the deadline: the cell is the budget's.
  const before =
    row.ends?.['budget-first'] && row.toolTimeoutMs ? ` (before its ${formatDuration(row.toolTimeoutMs)} timeout)` : '';
  const ended = row.agentExit?.ended
    ? `; the CLI did not exit (ended ${row.agentExit.ended}/${row.attempts}, ${formatDuration(row.agentExitMsMax ?? 0)} after its answer)`
    : '';
  return `${how}${before}${when}${some}${left}${ended}`;
}

/** The matrix of shell-tool rows: one table of CLIs × classes, or per mode classes × CLIs when there are many classes. */
function shellToolTables(rows, attempts) {
  const cliOf = (row) => row.cli.split('·')[0].replace(/^cli-/, '');
  const modeOf = (row) => row.mode ?? '–';
  const classes = [...new Set(rows.map((row) => row.class))].sort();
  const modes = [...new Set(rows.map(modeOf))].sort((a, b) =>
    a === 'none' ? -1 : b === 'none' ? 1 : a.localeCompare(b),
  );
  const clis = [...new Set(rows.map(cliOf))].sort();
  const find = (cli, mode, cls) => rows.find((row) => cliOf(row) === cli && modeOf(row) === mode && row.class === cls);
  const cases = (cls) =>
    [...new Set(attempts.filter((attempt) => attempt.class === cls).map((attempt) => attempt.caseId))]
      .sort()
      .map((id) => `\`${id}\``)
      .join(', ');
  const tables = [];
  if (classes.length <= 5) {
    const withMode = modes.length > 1;
    tables.push(
      `| CLI |${withMode ? ' mode |' : ''} ${classes.join(' | ')} |`,
      `|---|${withMode ? '---|' : ''}${classes.map(() => '---|').join('')}`,
      ...clis.flatMap((cli) =>
        modes
          .filter((mode) => classes.some((cls) => find(cli, mode, cls)))
          .map(
            (mode) =>
              `| ${cli} |${withMode ? ` ${mode} |` : ''} ${classes.map((cls) => shellToolCell(find(cli, mode, cls))).join(' | ')} |`,
          ),
      ),
    );
  } else {
    for (const mode of modes) {
      if (modes.length > 1) tables.push(`Mode \`${mode}\`:`, '');
      tables.push(
        `| class | ${clis.join(' | ')} |`,
        `|---|${clis.map(() => '---|').join('')}`,
        ...classes.map((cls) => `| ${cls} | ${clis.map((cli) => shellToolCell(find(cli, mode, cls))).join(' | ')} |`),
        '',
      );
    }
    tables.pop();
  }
  return { tables, classes, cases };
}

const GENERATORS = {
  // every command's flags, from its table in src/cli/flags/ (what parsing, --help and eval --resume read too)
  'flags-eval': async () => renderFlagsMarkdown(COMMAND_FLAGS.eval, { withResume: true }),
  'flags-commands': async () =>
    Object.entries(COMMAND_FLAGS)
      .filter(([command]) => command !== 'eval')
      .map(([command, table]) => [`\`hangbench ${command}\`:`, '', renderFlagsMarkdown(table)].join('\n'))
      .join('\n\n'),
  /** The case library: counts, then one row per kind and class with its cases (pty ones marked). */
  library: async () => {
    const { cases, problems } = await loadCases([path.join(root, 'cases')], root);
    if (problems.length > 0) throw new Error(`cases/ has problems: ${problems.length}; run hangbench validate`);
    const hangs = cases.filter((c) => c.kind === 'hang');
    const controls = cases.filter((c) => c.kind === 'control');
    const classes = (list) => new Set(list.map((c) => caseClass(c))).size;
    const pty = cases.filter((c) => c.terminal === 'pty').length;
    const rows = new Map();
    for (const c of [...hangs, ...controls]) {
      const key = `${c.kind}\u0000${caseClass(c)}`;
      rows.set(key, [...(rows.get(key) ?? []), c]);
    }
    const sorted = [...rows.entries()].sort(([a], [b]) =>
      a.startsWith('hang') === b.startsWith('hang') ? a.localeCompare(b) : a.startsWith('hang') ? -1 : 1,
    );
    const table = sorted.map(([key, list]) => {
      const [kind, cls] = key.split('\u0000');
      const names = list
        .map((c) => c.id)
        .sort()
        .map((id) => `\`${id}\`${list.find((c) => c.id === id).terminal === 'pty' ? ' (pty)' : ''}`);
      return `| ${kind} | \`${cls}\` | ${list.length} | ${names.join(', ')} |`;
    });
    return [
      `${hangs.length} hang cases over ${classes(hangs)} classes and ${controls.length} controls over ${classes(controls)} classes, in Node.js, Python and bash (${pty} run on a terminal, \`terminal: pty\`).`,
      '',
      '| kind | class | n | cases |',
      '|---|---|---|---|',
      ...table,
    ].join('\n');
  },
  /** Where each case's pattern comes from: its `source:` URLs, labelled as `hangbench list` labels them. */
  sources: async () => {
    const { cases } = await loadCases([path.join(root, 'cases')], root);
    const rows = [...cases]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map(
        (c) =>
          `| \`${c.id}\` | ${c.kind} | \`${caseClass(c)}\` | ${c.source.length === 0 ? '—' : c.source.map((url) => `[${sourceLabel(url)}](${url})`).join(', ')} |`,
      );
    return ['| case | kind | class | source |', '|---|---|---|---|', ...rows].join('\n');
  },
  /** The tarball as `npm pack --dry-run --json` describes it (the same list `npm run test:pack` installs). */
  pack: async () => {
    const [info] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    );
    const files = info.files.map((file) => file.path);
    const fixtures = files.filter((file) => file.startsWith('fixtures/')).length;
    const dist = files.filter((file) => file.startsWith('dist/')).length;
    // Sizes to a tenth of a megabyte: a byte-exact figure would go stale with every line of source.
    const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
    return `The tarball of ${info.version}, from \`npm pack --dry-run --json\` (\`npm run docs:figures\` rewrites this line): ${info.entryCount.toLocaleString('en-US')} files, ${mb(info.size)} packed, ${mb(info.unpackedSize)} unpacked — ${fixtures.toLocaleString('en-US')} of the files are the fixtures of the case library and ${dist} are \`dist/\` (a \`.js\` and a \`.d.ts\` per module).`;
  },
  /** The top of README: an excerpt of a default eval's terminal tables (four rows of the attempt table, the summary). */
  'run-excerpt': async () => {
    const run = record('default-eval');
    const [attempts, summary] = stdoutTables(run);
    const shown = ['ctl-quiet-optimizer', 'ctl-silent-download', 'node-retry-forever', 'py-pipe-deadlock'];
    const rows = attempts.filter((line, index) => index === 0 || shown.includes(line.split(/\s+/)[0]));
    return [
      `(an excerpt of \`${run.command}\` on the ${caseCount(run)} cases, ${only(run).agent} agent, time scale ${run.summary.options.timeScale}: ${minSec(run.wallSeconds)} wall and a ${run.harnessPeakRssMb} MB harness peak RSS on ${run.cores} cores. \`fixed\` is scored for hangs, a control's hidden checks passing afterwards is \`intact\`; \`diag\` counts hangs whose first hung tick named the culprit process. Record: ${madeBy('default-eval')}.)`,
      '',
      '```',
      ...rows,
      '',
      ...summary,
      '```',
    ].join('\n');
  },
  /** The oracle over the library at time scale 0.1. */
  oracle: async () => {
    const run = record('oracle-ts01');
    const group = only(run);
    return `\`${run.command}\` runs the scripted oracle (it applies each case's \`solution.patch\`): it solved ${frac(group.solved)} cases in ${minSec(run.wallSeconds)} on ${run.cores} cores. Record: ${madeBy('oracle-ts01')}.`;
  },
  /** README's Performance: the whole library's wall time and peak RSS, and the outcome agreement of two such runs. */
  'run-performance': async () => {
    const a = record('default-eval');
    const b = record('default-eval-2');
    const same = await agreement(a, b);
    return [
      `\`${a.command}\` ran ${caseCount(a)} cases (${only(a).agent} agent, time scale ${a.summary.options.timeScale}) in`,
      `**${minSec(a.wallSeconds)}** on ${a.cores} cores: harness peak RSS ${a.harnessPeakRssMb} MB (VmHWM of the hangbench process), ${a.treePeakRssMb} MB`,
      `for the largest single process of the run (\`/usr/bin/time\` %M). A second such run (${minSec(b.wallSeconds)}, ${b.harnessPeakRssMb} MB) had the`,
      `same per-case outcome (reproduced / interrupted / false kill / completed) on **${same.same} of ${same.keys}** attempts`,
      `(\`node bench/compare-runs.mjs <run-a> <run-b>\` compares two run folders). Records: ${madeBy('default-eval')}; ${madeBy('default-eval-2')}.`,
    ].join('\n');
  },
  /** Every run record as a table row: what ran, its wall time and peak RSS. */
  'run-table': async () => {
    const names = readdirSync(path.join(base, 'docs', 'measurements'))
      .filter((name) => name.endsWith('.json'))
      .map((name) => path.basename(name, '.json'))
      .sort();
    const rows = names.map((name) => {
      const run = record(name);
      const group = run.summary.groups;
      return `| \`${file(name)}\` | \`${run.command}\` | ${day(run.date)} | ${caseCount(run)} | ${group.length} | ${run.summary.totals.attempts} | ${minSec(run.wallSeconds)} | ${run.harnessPeakRssMb ?? '–'} MB | ${run.treePeakRssMb ?? '–'} MB | ${run.cores} | ${short(run.commit)} |`;
    });
    return [
      '| record | command | date | cases | variants | attempts | wall | harness peak RSS | largest process | cores | commit |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  },
  /** The monitor measured by the baseline agent: README's bullets under "Benchmark figures". */
  'run-monitor': async () => {
    const run = record('default-eval');
    const group = only(run);
    const hangs = run.summary.attempts.filter((attempt) => attempt.kind === 'hang');
    const controls = run.summary.attempts.filter((attempt) => attempt.kind === 'control');
    const ids = (list) => list.map((attempt) => `\`${attempt.caseId}\``).join(', ');
    const undiagnosed = hangs.filter((attempt) => attempt.scores.diagnosed === false);
    const missed = hangs.filter((attempt) => !attempt.scores.interrupted);
    const killed = controls.filter((attempt) => attempt.scores.false_kill === true);
    const latency = group.interruptLatencyMs;
    return [
      `Record: ${madeBy('default-eval')}.`,
      '',
      `- hangs reproduced ${frac(group.reproduced)}, **interrupted ${frac(group.interrupted)}**${missed.length > 0 ? ` (not: ${ids(missed)})` : ''}, the culprit named by the first hung tick in ${frac(group.diagnosed)}${undiagnosed.length > 0 ? ` (not in ${ids(undiagnosed)})` : ''}; latency after onset p50 ${formatDuration(latency.p50)} / p90 ${formatDuration(latency.p90)}.`,
      `- **false kills on controls ${frac(group.false_kill)}**${killed.length > 0 ? `: ${ids(killed)}` : ''}; controls completed ${frac(group.completed)}, intact ${frac(group.intact)}.`,
    ].join('\n');
  },
  /** Per true class, what the monitor said at the baseline's kill or the repro's exit (README). */
  'run-classes': async () => {
    const run = record('default-eval');
    const [confusion] = run.summary.confusion;
    const rows = confusion.rows.map((row) => {
      const said = Object.entries(row.counts)
        .sort(([a, n], [b, m]) => m - n || confusion.columns.indexOf(a) - confusion.columns.indexOf(b))
        .map(([column, n]) => `${column} ${n}`)
        .join(', ');
      return `| ${row.class} | ${row.kind} | ${row.attempts} | ${said} | ${row.looksHung}/${row.attempts} |`;
    });
    return [
      `Record: ${madeBy('default-eval')}.`,
      '',
      '| true class | kind | n | monitor said at the kill / exit | looks hung |',
      '|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  },
  /** docs/diagnosis.md: the confusion table with a column per classification, and its totals. */
  'run-confusion': async () => {
    const run = record('default-eval');
    const group = only(run);
    const [confusion] = run.summary.confusion;
    const rows = confusion.rows.map(
      (row) =>
        `| ${row.class} | ${row.kind} | ${row.attempts} | ${confusion.columns.map((column) => row.counts[column] ?? '·').join(' | ')} | ${row.looksHung}/${row.attempts} |`,
    );
    return [
      `Record: ${madeBy('default-eval')}. Classification at the baseline's kill or the command's exit, by case class (\`none\`: the command exited before its first tick):`,
      '',
      `| class | kind | n | ${confusion.columns.join(' | ')} | looks hung |`,
      `|---|---|---|${confusion.columns.map(() => '---|').join('')}---|`,
      ...rows,
      '',
      `interrupted ${frac(group.interrupted)}, false kills ${frac(group.false_kill)}, diagnosed ${frac(group.diagnosed)}`,
    ].join('\n');
  },
  /** The goals of the newest full bench run, as bench/run.js prints them. */
  'bench-goals': async () => {
    const b = benchRecord();
    const rows = b.goals.map(
      (goal) =>
        `| ${goal.figure} | ${Number(goal.value).toFixed(goal.value < 10 ? 2 : 1)} | ${typeof goal.goal === 'number' ? `≤ ${goal.goal}` : goal.goal} | ${goal.met ? 'yes' : '**no**'} |`,
    );
    return [`From ${benchMadeBy()}:`, '', '| figure | measured | goal | met |', '|---|---|---|---|', ...rows].join(
      '\n',
    );
  },
  /** The goals the newest full bench run did not meet. */
  'bench-unmet': async () => {
    const b = benchRecord();
    const unmet = b.goals.filter((goal) => !goal.met);
    if (unmet.length === 0) return `Every goal was met in \`${b.file}\`.`;
    return [
      `In \`${b.file}\`:`,
      '',
      ...unmet.map(
        (goal) =>
          `- ${goal.figure}: ${Number(goal.value).toFixed(goal.value < 10 ? 2 : 1)} (goal ${typeof goal.goal === 'number' ? `≤ ${goal.goal}` : goal.goal})`,
      ),
    ].join('\n');
  },
  /** Every section of the newest full bench run: its table and notes, as the run wrote them. */
  'bench-sections': async () => {
    const b = benchRecord();
    return [
      `From ${benchMadeBy()}.`,
      ...b.sections.flatMap((section) => [
        '',
        `### ${section.title}`,
        '',
        section.table,
        '',
        ...section.notes,
        `(\`${section.name}\` section, ${Math.round(section.seconds)} s)`,
      ]),
    ].join('\n');
  },
  /** docs/isolation.md: the isolation section of the newest full bench run. */
  'bench-isolation': async () => benchSection('isolation'),
  /** docs/installed-agents.md: the model proxy's section. */
  'bench-proxy': async () => benchSection('proxy'),
  /** docs/sweeps.md: the sweep table of a two-mode × three-interval run, as its report.md gives it. */
  sweep: async () => {
    const run = record('sweep-ts05');
    const section = markdownSection(renderMarkdown(run.summary), '### Sweep over');
    return [
      `Record: ${madeBy('sweep-ts05')}. ${caseCount(run)} cases, ${run.summary.totals.attempts} attempts, ${minSec(run.wallSeconds)} wall, harness peak RSS ${run.harnessPeakRssMb} MB.`,
      '',
      ...section,
    ].join('\n');
  },
  /** docs/sweeps.md: one row of the same run's paired comparison of false kills, 10 s against 2 s. */
  'sweep-pair': async () => {
    const run = record('sweep-ts05');
    const lines = markdownSection(renderMarkdown(run.summary), '#### false kills (');
    const head = lines.filter((line) => line.startsWith('|')).slice(0, 2);
    const row = lines.find(
      (line) =>
        line.startsWith('| baseline-k2·interval-10s | baseline-k2·interval-2s |') ||
        line.startsWith('| baseline-k2·interval-2s | baseline-k2·interval-10s |'),
    );
    if (!row) throw new Error(`${file('sweep-ts05')}: no false-kill comparison of interval-10s and interval-2s`);
    return [`(from \`${file('sweep-ts05')}\`)`, '', ...head, row].join('\n');
  },
  /** docs/sweeps.md: per variant of the sweep, hangs killed before their onset, fixed and intact. */
  'sweep-notes': async () => {
    const run = record('sweep-ts05');
    const rows = run.summary.groups.map((group) => {
      const hangs = run.summary.attempts.filter((a) => a.variant === group.variant && a.kind === 'hang');
      const early = hangs.filter((a) => a.scores.reproduced === false).length;
      return `| ${group.variant} | ${early}/${hangs.length} | ${frac(group.fixed)} | ${frac(group.intact)} |`;
    });
    return [
      '| variant | hangs not reproduced (killed before the onset) | fixed (hangs) | intact (controls) |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n');
  },
  /**
   * The shell-tool matrix from docs/measurements/shell-tools.json. Each cell: how the CLI's own tool ended the repro,
   * when its result reached the model (p50), and the repro's processes still alive then. Up to 5 hang classes: one row
   * per CLI (and mode), one column per class; more: a table per mode, one row per class, one column per CLI.
   */
  /** The shell-tool matrix on the cases added after the whole-library records, with the probe's budgets. */
  'shell-tools-new-cases': async () => {
    const run = record('shell-tools-new-cases');
    const rows = (run.summary.shellTools ?? []).filter((row) => row.installed);
    if (rows.length === 0)
      throw new Error(`${file('shell-tools-new-cases')}: summary.json has no installed-CLI shellTools rows`);
    const { tables, classes, cases } = shellToolTables(rows, run.summary.attempts);
    const controls = run.summary.attempts.filter((attempt) => attempt.kind === 'control');
    const falseKills = controls.filter((attempt) => attempt.scores.false_kill === true).length;
    return [
      `Record: ${madeBy('shell-tools-new-cases')} (${minSec(run.wallSeconds)} wall; ${caseCount(run)} cases, ${run.summary.attempts.length} attempts, false kills ${falseKills} of ${controls.length} controls). Each cell as in the matrix above, with the probe's budgets (a tool that did not answer before its own deadline passed is "never returned", one the budget cut first "the budget ended it first"; "the CLI did not exit": ended by the harness 30 s after its final answer).`,
      '',
      ...tables,
      '',
      `Cases: ${classes.map((cls) => `${cls} ${cases(cls)}`).join('; ')}.`,
    ].join('\n');
  },
  /** Each CLI's boot, from its start to its first model request: wall and CPU (scores agent_boot_ms, agent_boot_cpu_ms). */
  'cli-boots': async () => {
    const run = record('cli-boots');
    const median = (values) => {
      const sorted = values.filter((value) => value !== null).sort((a, b) => a - b);
      return sorted.length === 0 ? null : sorted[Math.floor((sorted.length - 1) / 2)];
    };
    const byCli = new Map();
    for (const attempt of run.summary.attempts) {
      const cli = attempt.variant.split('·')[0];
      byCli.set(cli, [...(byCli.get(cli) ?? []), attempt]);
    }
    const ms = (value) => (value === null ? '–' : formatDuration(value));
    const rows = [...byCli.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([cli, attempts]) => {
        const cpu = attempts.map((attempt) => attempt.scores.agent_boot_cpu_ms);
        const known = cpu.filter((value) => value !== null);
        return `| ${cli.replace(/^cli-/, '')} | ${attempts.length} | ${ms(median(attempts.map((attempt) => attempt.scores.agent_boot_ms)))} | ${ms(median(cpu))} | ${ms(known.length === 0 ? null : Math.max(...known))} | ${ms(median(attempts.map((attempt) => attempt.cpuMs ?? null)))} |`;
      });
    return [
      `Record: ${madeBy('cli-boots')} (${minSec(run.wallSeconds)} wall; one attempt at a time, beside other work on the machine: the CPU ms are the attempt's own).`,
      '',
      '| CLI | n | boot, wall (p50) | boot, CPU (p50) | boot, CPU (max) | whole attempt, CPU (p50) |',
      '|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  },
  /** The probe's budgets at work: each CLI's tool on one hang case, with the wall budget at least its own deadline. */
  'probe-budgets': async () => {
    const run = record('probe-budgets');
    const rows = (run.summary.shellTools ?? []).filter((row) => row.installed);
    if (rows.length === 0)
      throw new Error(`${file('probe-budgets')}: summary.json has no installed-CLI shellTools rows`);
    const budgets = new Map(run.summary.attempts.map((attempt) => [attempt.variant, attempt.scores.tool_timeout_ms]));
    return [
      `Record: ${madeBy('probe-budgets')} (${minSec(run.wallSeconds)} wall).`,
      '',
      '| CLI | class | its own deadline | what its tool did (when its result reached the model) | the CLI |',
      '|---|---|---|---|---|',
      ...rows.map(
        (row) =>
          `| ${row.cli.replace(/^cli-/, '')} | ${row.class} | ${budgets.get(row.variant) ? formatDuration(budgets.get(row.variant)) : 'none'} | ${shellToolCell(row)} | ${
            Object.entries(row.agentExit ?? {})
              .map(([how, n]) => `${how} ${n}/${row.attempts}`)
              .join(', ') || '–'
          } |`,
      ),
    ].join('\n');
  },
  'shell-tools': async () => {
    const run = record('shell-tools');
    const cliOf = (row) => row.cli.split('·')[0].replace(/^cli-/, '');
    const modeOf = (row) => row.mode ?? '–';
    const installed = (one) => (one.summary.shellTools ?? []).filter((row) => row.installed);
    if (installed(run).length === 0)
      throw new Error(`${file('shell-tools')}: summary.json has no installed-CLI shellTools rows`);
    // A later record (docs/measurements/shell-tools-inband.json, when there is one) adds its modes and replaces the
    // rows of every CLI and mode it measured again.
    const later = existsSync(path.join(base, 'docs', 'measurements', 'shell-tools-inband.json'))
      ? record('shell-tools-inband')
      : null;
    const key = (row) => `${cliOf(row)} ${modeOf(row)}`;
    const again = new Set(later ? installed(later).map(key) : []);
    const rows = [...installed(run).filter((row) => !again.has(key(row))), ...(later ? installed(later) : [])];
    const attempts = [...run.summary.attempts, ...(later?.summary.attempts ?? [])];
    const { tables, classes, cases } = shellToolTables(rows, attempts);
    const sources = later
      ? [
          `Records: ${madeBy('shell-tools')} (${minSec(run.wallSeconds)} wall), for every row not in`,
          `${madeBy('shell-tools-inband')} (${minSec(later.wallSeconds)} wall; ${caseCount(later)} cases), which has ${[
            ...again,
          ]
            .sort()
            .map((one) => `\`${one.replace(' ', '·')}\``)
            .join(', ')}.`,
        ].join(' ')
      : `Record: ${madeBy('shell-tools')} (${minSec(run.wallSeconds)} wall).`;
    return [
      `${sources} Each cell: how the CLI's shell tool had ended the repro when its result reached the model, the median seconds from the repro's start to then, and the repro's processes still alive then ("never returned": the attempt ended first; –: no attempt of that CLI on that class was scored).`,
      '',
      ...tables,
      '',
      `Cases: ${classes.map((cls) => `${cls} ${cases(cls)}`).join('; ')}. The hang tax, the reasons the tools gave and an example result per row are in the record's \`summary.shellTools\`.`,
    ].join('\n');
  },
};

const bodies = new Map();
/** Each generator runs once, however many blocks use it. */
const generated = async (name) => {
  if (!bodies.has(name)) bodies.set(name, await GENERATORS[name]());
  return bodies.get(name);
};

let stale = 0;
for (const name of FILES) {
  const full = path.join(base, name);
  if (!existsSync(full)) continue;
  const text = readFileSync(full, 'utf8');
  let next = text;
  for (const marker of text.matchAll(/<!-- figure:([\w-]+) -->/g)) {
    if (!GENERATORS[marker[1]]) throw new Error(`${name}: <!-- figure:${marker[1]} --> has no generator`);
  }
  for (const figure of Object.keys(GENERATORS)) {
    const open = `<!-- figure:${figure} -->\n`;
    const close = `\n<!-- /figure:${figure} -->`;
    let from = 0;
    for (;;) {
      const start = next.indexOf(open, from);
      if (start < 0) break;
      const end = next.indexOf(close, start);
      if (end < 0) throw new Error(`${name}: <!-- figure:${figure} --> has no <!-- /figure:${figure} -->`);
      const body = await generated(figure);
      if (next.slice(start + open.length, end) !== body) {
        stale += 1;
        console.log(`${name}: figure ${figure} ${check ? 'is stale' : 'rewritten'}`);
        next = next.slice(0, start + open.length) + body + next.slice(end);
      }
      from = start + open.length + body.length + close.length;
    }
  }
  if (!check && next !== text) writeFileSync(full, next);
}
if (check && stale > 0) {
  console.error(`${stale} figure(s) do not match their source: run npm run docs:figures and commit the result`);
  process.exit(1);
}
console.log(check ? 'docs figures: every marked figure matches its source' : 'docs figures: up to date');
