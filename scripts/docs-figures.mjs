#!/usr/bin/env node
// Figures in README.md and docs/ that a script can regenerate live between markers:
//   <!-- figure:NAME -->
//   …generated text…
//   <!-- /figure:NAME -->
// `node scripts/docs-figures.mjs` rewrites every marked block from the project as it is; `--check` rewrites nothing
// and exits 1 naming each block that is stale (CI runs that). Every generator is cheap (no eval run): a figure that
// needs a run is written with the command that produced it, or left out.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const FILES = ['README.md', 'docs/api.md'];

const { loadCases } = await import(path.join(root, 'dist/cases/load-cases.js'));
const { caseClass } = await import(path.join(root, 'dist/types/case.js'));
const { sourceLabel } = await import(path.join(root, 'dist/cases/source-label.js'));

const GENERATORS = {
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
};

let stale = 0;
for (const file of FILES) {
  const full = path.join(root, file);
  const text = readFileSync(full, 'utf8');
  let next = text;
  for (const [name, generate] of Object.entries(GENERATORS)) {
    const open = `<!-- figure:${name} -->\n`;
    const close = `\n<!-- /figure:${name} -->`;
    const start = next.indexOf(open);
    if (start < 0) continue;
    const end = next.indexOf(close, start);
    if (end < 0) throw new Error(`${file}: <!-- figure:${name} --> has no <!-- /figure:${name} -->`);
    const body = await generate();
    const current = next.slice(start + open.length, end);
    if (current !== body) {
      stale += 1;
      console.log(`${file}: figure ${name} ${check ? 'is stale' : 'rewritten'}`);
      next = next.slice(0, start + open.length) + body + next.slice(end);
    }
  }
  if (!check && next !== text) writeFileSync(full, next);
}
if (check && stale > 0) {
  console.error(`${stale} figure(s) do not match the project: run npm run docs:figures and commit the result`);
  process.exit(1);
}
console.log(check ? 'docs figures: every marked figure matches the project' : 'docs figures: up to date');
