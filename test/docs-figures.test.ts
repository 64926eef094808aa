import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const script = path.join(root, 'scripts', 'docs-figures.mjs');
const run = promisify(execFile);

/** `node scripts/docs-figures.mjs --check --dir DIR`: its exit code and what it printed. */
async function checkIn(dir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, '--check', '--dir', dir], { cwd: root });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function editJson(file: string, edit: (value: Record<string, unknown>) => void): Promise<void> {
  const value = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  edit(value);
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** The newest bench record of a full run, as docs-figures picks it. */
async function newestFullBench(dir: string): Promise<string> {
  const results = path.join(dir, 'bench', 'results');
  const files = (await readdir(results)).filter((file) => file.endsWith('.json')).sort();
  for (const file of files.reverse()) {
    const record = JSON.parse(await readFile(path.join(results, file), 'utf8')) as { smoke?: boolean; only?: unknown };
    if (record.smoke === false && record.only === null) return path.join(results, file);
  }
  throw new Error('no full bench record');
}

// A copy of the docs and their records in a temporary folder: the real README and docs are never edited here.
describe('scripts/docs-figures.mjs --check (figures rendered from committed records)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hangbench-docs-figures-'));
    await cp(path.join(root, 'README.md'), path.join(dir, 'README.md'));
    await cp(path.join(root, 'docs'), path.join(dir, 'docs'), { recursive: true });
    await cp(path.join(root, 'bench', 'results'), path.join(dir, 'bench', 'results'), { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('passes on the committed docs and records', async () => {
    const result = await checkIn(dir);
    expect(result.output).toContain('every marked figure matches its source');
    expect(result.code).toBe(0);
  });

  it('fails, naming the blocks, when a run record changes', async () => {
    await editJson(path.join(dir, 'docs', 'measurements', 'default-eval.json'), (record) => {
      record.wallSeconds = Number(record.wallSeconds) + 61;
    });
    const result = await checkIn(dir);
    expect(result.code).toBe(1);
    expect(result.output).toContain('README.md: figure run-excerpt is stale');
    expect(result.output).toContain('README.md: figure run-performance is stale');
  });

  it('fails when the newest full bench record changes, and never quotes a smoke or BENCH_ONLY run', async () => {
    const full = await newestFullBench(dir);
    const newer = (name: string) => path.join(dir, 'bench', 'results', `9999-12-31T00-00-0${name}.json`);
    const record = JSON.parse(await readFile(full, 'utf8')) as Record<string, unknown> & {
      goals: { value: number }[];
    };
    const halved = { ...record, goals: record.goals.map((goal) => ({ ...goal, value: goal.value / 2 })) };
    await writeFile(newer('1'), JSON.stringify({ ...halved, smoke: true }));
    await writeFile(newer('2'), JSON.stringify({ ...halved, only: ['sampling'] }));
    expect((await checkIn(dir)).code).toBe(0);

    await editJson(full, (value) => {
      const [first] = value.goals as { value: number }[];
      if (first) first.value += 1000;
    });
    const result = await checkIn(dir);
    expect(result.code).toBe(1);
    expect(result.output).toContain('README.md: figure bench-goals is stale');
    expect(result.output).toContain('docs/performance.md: figure bench-goals is stale');
  });

  it('renders the shell-tool matrix from docs/measurements/shell-tools.json, and --check fails once the record changes', async () => {
    // A made-up record in the temporary folder only: two CLIs on one hang class, as summary.json's shellTools has them.
    const row = (
      cli: string,
      ends: Record<string, number>,
      returned: number,
      p50: number | null,
      left: number | null,
    ) => ({
      cli: `cli-${cli}`,
      variant: `cli-${cli}·none`,
      agent: 'cli',
      mode: 'none',
      class: 'pipe-read-block',
      attempts: 1,
      installed: true,
      returned,
      toolReturnMs: { p50, max: p50 },
      ends,
      leftAfterTool: left,
      leftAfterExit: left,
      heldOutput: 0,
      statedElapsed: 0,
      reasons: [],
      hangTaxMs: null,
      hangTaxTokens: null,
      example: null,
    });
    const matrix = path.join(dir, 'matrix');
    await cp(path.join(dir, 'bench'), path.join(matrix, 'bench'), { recursive: true });
    await writeFile(
      path.join(matrix, 'README.md'),
      '# matrix\n\n<!-- figure:shell-tools -->\n<!-- /figure:shell-tools -->\n',
    );
    const recordFile = path.join(matrix, 'docs', 'measurements', 'shell-tools.json');
    await mkdir(path.dirname(recordFile), { recursive: true });
    await writeFile(
      recordFile,
      JSON.stringify({
        name: 'shell-tools',
        command: 'node bin/hangbench.js eval cases/bash-fifo-no-writer.yaml --agent cli:codex,cli:cline --model probe',
        reproduce: 'node scripts/measure-run.mjs shell-tools -- node bin/hangbench.js eval …',
        date: '2026-01-01T00:00:00.000Z',
        commit: '0000000000000000000000000000000000000000',
        node: 'v20.0.0',
        cores: 2,
        wallSeconds: 90,
        summary: {
          attempts: [{ caseId: 'bash-fifo-no-writer', class: 'pipe-read-block' }],
          shellTools: [
            row('codex', { 'returned-running': 1 }, 1, 10_300, 4),
            row('cline', { 'never-returned': 1 }, 0, null, null),
          ],
        },
      }),
    );
    await run(process.execPath, [script, '--dir', matrix], { cwd: root });
    const readme = await readFile(path.join(matrix, 'README.md'), 'utf8');
    expect(readme).toContain('| CLI | pipe-read-block |');
    expect(readme).toContain('| codex | returned it running (10.3s); 4 left |');
    expect(readme).toContain('| cline | never returned |');
    expect((await checkIn(matrix)).code).toBe(0);

    await editJson(recordFile, (record) => {
      const summary = record.summary as { shellTools: { ends: Record<string, number> }[] };
      const cline = summary.shellTools[1];
      if (cline) cline.ends = { 'killed-tree': 1 };
    });
    const result = await checkIn(matrix);
    expect(result.code).toBe(1);
    expect(result.output).toContain('README.md: figure shell-tools is stale');
  });
});
