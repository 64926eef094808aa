import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ts from 'typescript';

const SRC = path.resolve(import.meta.dirname, '../src');

interface Import {
  readonly file: string;
  /** the imported file, relative to src/ (`.js` as written, which tsc maps to the `.ts`). */
  readonly module: string;
  /** the folder it resolves to (top-level files count as `.`). */
  readonly target: string;
}

/** src/index.ts re-exports the library API from every stage (docs/api.md): it is the top, not a layer. */
const PUBLIC_API = 'index.ts';

function unitOf(module: string): string {
  return module.includes(path.sep) ? module.split(path.sep)[0]! : '.';
}

/** Every `from '…'` (values and types alike) of every file under src/<folder>; `.` is src/'s own top-level files. */
async function importsOf(folder: string): Promise<Import[]> {
  const files =
    folder === '.'
      ? (await readdir(SRC, { withFileTypes: true }))
          .filter((entry) => entry.isFile() && entry.name !== PUBLIC_API)
          .map((entry) => entry.name)
      : (await readdir(path.join(SRC, folder), { recursive: true })).map((file) => path.join(folder, file));
  const found: Import[] = [];
  for (const file of files.filter((name) => name.endsWith('.ts'))) {
    const full = path.join(SRC, file);
    const text = await readFile(full, 'utf8');
    for (const match of text.matchAll(/from '(\.[^']+)'/g)) {
      const module = path.relative(SRC, path.resolve(path.dirname(full), match[1]!));
      found.push({ file, module, target: unitOf(module) });
    }
  }
  return found;
}

async function folders(): Promise<string[]> {
  return (await readdir(SRC, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/**
 * The direction of imports (docs/architecture.md): cli → check, report → run → cases → attempt → scorers, agents →
 * monitor → sandbox → types. A stage never reaches up; report/ reads finished run folders, so it knows nothing of
 * how an attempt runs; the CLI starts runs through run/ and check/, never an attempt or the monitor directly.
 */
const RUN_STAGES = ['run', 'attempt', 'cases', 'check'];
const MAY_NOT_IMPORT: Record<string, readonly string[]> = {
  cli: ['attempt', 'monitor'],
  report: ['cli', 'check', 'attempt', 'cases', 'agents', 'monitor', 'sandbox'],
  check: ['cli', 'report'],
  run: ['cli', 'report', 'check'],
  cases: ['cli', 'report', 'run', 'check', 'agents', 'monitor', 'sandbox', 'scorers', 'summary', 'trace', 'stats'],
  attempt: ['cli', 'report', 'check', 'cases', 'run'],
  capture: ['cli', 'report', 'run', 'check', 'agents'],
  agents: ['cli', ...RUN_STAGES, 'report', 'scorers', 'summary'],
  monitor: ['cli', ...RUN_STAGES, 'report', 'scorers', 'summary', 'agents'],
  sandbox: ['cli', ...RUN_STAGES, 'report', 'scorers', 'summary', 'agents', 'monitor'],
  /** the one /proc layer, below the sandbox and the monitor alike. */
  proc: [
    'cli',
    ...RUN_STAGES,
    'report',
    'scorers',
    'summary',
    'agents',
    'monitor',
    'sandbox',
    'capture',
    'trace',
    'stats',
  ],
  scorers: ['cli', ...RUN_STAGES, 'report', 'agents', 'monitor', 'sandbox', 'summary'],
  summary: ['cli', ...RUN_STAGES, 'report', 'agents', 'monitor', 'sandbox'],
  trace: ['cli', ...RUN_STAGES, 'report', 'agents', 'monitor', 'sandbox', 'scorers', 'summary'],
  stats: ['cli', ...RUN_STAGES, 'report', 'agents', 'monitor', 'sandbox', 'scorers', 'summary', 'trace'],
  /**
   * one definition per monitor mode (schema, label, scaling, period, schedule): plain data and arithmetic that the
   * variant schema in types/ is built from (zod, each other, durations from types/ and the defaults, nothing else).
   */
  modes: [
    'cli',
    ...RUN_STAGES,
    'report',
    'agents',
    'monitor',
    'sandbox',
    'proc',
    'scorers',
    'summary',
    'trace',
    'stats',
    'capture',
  ],
  types: [
    'cli',
    ...RUN_STAGES,
    'report',
    'agents',
    'monitor',
    'sandbox',
    'proc',
    'scorers',
    'summary',
    'trace',
    'stats',
  ],
  /** src/'s top-level files but index.ts: defaults.ts imports nothing of src/, so every layer (types/ too) reads it. */
  '.': [
    'cli',
    ...RUN_STAGES,
    'report',
    'agents',
    'monitor',
    'sandbox',
    'scorers',
    'summary',
    'trace',
    'stats',
    'types',
    'modes',
  ],
};

describe('the direction of imports', () => {
  it('has a rule for every folder of src/', async () => {
    expect((await folders()).filter((folder) => !(folder in MAY_NOT_IMPORT))).toEqual([]);
  });

  for (const [folder, forbidden] of Object.entries(MAY_NOT_IMPORT)) {
    it(`src/${folder} imports nothing from ${forbidden.join(', ')}`, async () => {
      const wrong = (await importsOf(folder)).filter((entry) => forbidden.includes(entry.target));
      expect(wrong).toEqual([]);
    });
  }

  it('has no import circle between files (a type import back counts too)', async () => {
    const graph = new Map<string, string[]>();
    for (const folder of [...(await folders()), '.']) {
      for (const entry of await importsOf(folder)) {
        const from = entry.file.replace(/\.ts$/, '');
        const to = entry.module.replace(/\.js$/, '');
        graph.set(from, [...(graph.get(from) ?? []), to]);
      }
    }
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(circles).toEqual([]);
  });

  it('enters a folder that has a barrel (index.ts) only through it', async () => {
    const barrels = new Set<string>();
    for (const folder of await folders()) if (existsSync(path.join(SRC, folder, 'index.ts'))) barrels.add(folder);
    expect(barrels.size).toBeGreaterThan(0);
    const around: string[] = [];
    for (const folder of [...(await folders()), '.']) {
      for (const entry of await importsOf(folder)) {
        if (entry.target === unitOf(entry.file) || !barrels.has(entry.target)) continue;
        if (entry.module !== path.join(entry.target, 'index.js')) around.push(`${entry.file} → ${entry.module}`);
      }
    }
    expect(around).toEqual([]);
  });
});

/**
 * Where a file outside src/proc/ names a /proc path in its code (comments aside) and does not read it: a path inside
 * the jail. (A shell line such as `for fd in /proc/$$/fd/*` runs inside a command and is not matched.)
 */
const PROC_PATHS_NOT_READ: Record<string, string> = {
  'sandbox/jail/jail-mounts.ts': 'the jail mounts its own /proc',
};

/** Reads that are still to move into src/proc/ (each with what it reads); the test below drops an entry once it moved. */
const PROC_READS_TO_MOVE: Record<string, string> = {
  'monitor/waits/relations.ts':
    "a process's net namespace's inode (stat of ns/net), in a file under another change now",
};

/** The /proc paths a file's code (not its comments) names: string and template literals that start with /proc. */
function procPathsIn(file: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteralLike(node) || ts.isTemplateHead(node)) && /^\/proc(\/|$)/.test(node.text))
      found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return found;
}

describe('the one reader of /proc', () => {
  it('names a /proc path only in src/proc/ (the rest asks its functions)', async () => {
    const outside: string[] = [];
    for (const file of (await readdir(SRC, { recursive: true })).filter((name) => name.endsWith('.ts'))) {
      if (file.startsWith(`proc${path.sep}`) || file in PROC_PATHS_NOT_READ || file in PROC_READS_TO_MOVE) continue;
      for (const proc of procPathsIn(file, await readFile(path.join(SRC, file), 'utf8')))
        outside.push(`${file}: ${proc}`);
    }
    expect(outside).toEqual([]);
  });

  it('lists as not read, or still to move, only files that still name a /proc path', async () => {
    for (const file of [...Object.keys(PROC_PATHS_NOT_READ), ...Object.keys(PROC_READS_TO_MOVE)])
      expect(procPathsIn(file, await readFile(path.join(SRC, file), 'utf8')), file).not.toEqual([]);
  });
});

/** Folders that hold several concerns keep one subfolder per concern; their top level is the entry and shared types. */
const SUBFOLDERS: Record<string, readonly string[]> = {
  sandbox: ['agent', 'cgroup', 'files', 'host', 'jail', 'kill', 'net'],
  monitor: ['classify', 'output', 'sample', 'ticks', 'waits'],
  /** one subfolder per output (terminal tables, markdown, junit, html, compare); index.ts the entry. */
  report: ['compare', 'html', 'junit', 'markdown', 'terminal'],
};

/**
 * How many files a folder of SUBFOLDERS keeps at its top (8 unless named): report/'s are its entry, the run folder's
 * reading, writing and merging, the reporter hooks, and the views its outputs share.
 */
const MAX_TOP_FILES: Record<string, number> = { report: 13 };

/** Folders below a stage that the rest of src/ enters only through their index.ts. */
const NESTED_ENTRIES = [path.join('agents', 'cli')];

describe('entries of nested folders', () => {
  for (const entryFolder of NESTED_ENTRIES) {
    it(`enters src/${entryFolder} only through its index.ts`, async () => {
      expect(existsSync(path.join(SRC, entryFolder, 'index.ts'))).toBe(true);
      const around: string[] = [];
      for (const folder of [...(await folders()), '.']) {
        for (const entry of await importsOf(folder)) {
          if (!entry.module.startsWith(entryFolder + path.sep) || entry.file.startsWith(entryFolder + path.sep))
            continue;
          if (entry.module !== path.join(entryFolder, 'index.js')) around.push(`${entry.file} → ${entry.module}`);
        }
      }
      expect(around).toEqual([]);
    });
  }
});

describe('subfolders per concern', () => {
  for (const [folder, expected] of Object.entries(SUBFOLDERS)) {
    it(`src/${folder} has its concerns in ${expected.join(', ')} and few files at its top`, async () => {
      const entries = await readdir(path.join(SRC, folder), { withFileTypes: true });
      expect(
        entries
          .filter((entry) => entry.isDirectory())
          .map((entry) => entry.name)
          .sort(),
      ).toEqual([...expected]);
      expect(entries.filter((entry) => entry.isFile()).length).toBeLessThanOrEqual(MAX_TOP_FILES[folder] ?? 8);
    });
  }
});

/** A function longer than this is split into named steps (docs/architecture.md). */
const MAX_FUNCTION_LINES = 80;

describe('function length', () => {
  it(`no function in src/ runs over ${MAX_FUNCTION_LINES} lines, first to last`, async () => {
    const long: string[] = [];
    for (const file of (await readdir(SRC, { recursive: true })).filter((name) => name.endsWith('.ts'))) {
      const source = ts.createSourceFile(
        file,
        await readFile(path.join(SRC, file), 'utf8'),
        ts.ScriptTarget.Latest,
        true,
      );
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
          const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
          const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
          if (last - first + 1 > MAX_FUNCTION_LINES) long.push(`${file}:${first + 1} (${last - first + 1} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});
