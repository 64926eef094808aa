import type { ProcessSample } from '../../types/process.js';

const INTERPRETERS = /^(python[0-9.]*|node|bash|sh|dash|zsh|perl|ruby|php|deno|bun)$/;

/** How a diagnosis names a process: `python3 build.py (pid 4)` — the program and, for an interpreter, its script. */
export function nameOf(process: Named, notes: readonly string[] = []): string {
  return `${programOf(process)} (pid ${process.innerPid ?? process.pid}${notes.map((note) => `, ${note}`).join('')})`;
}

/** What naming needs of a process: a sample, or the record of one that ended. */
type Named = Pick<ProcessSample, 'pid' | 'innerPid' | 'command' | 'args'>;

/** The program and, for an interpreter, its script: `python3 worker.py`, without a pid. */
export function programOf(process: Named): string {
  const argv = process.args.split(' ').filter(Boolean);
  const program = basename(argv[0] ?? process.command) || process.command;
  if (!INTERPRETERS.test(program)) return program;
  const script = argv
    .slice(1)
    .find((arg, at, rest) => !arg.startsWith('-') && !['-c', '-m'].includes(rest[at - 1] ?? ''));
  const module = argv.indexOf('-m');
  if (module > 0 && argv[module + 1]) return `${program} -m ${argv[module + 1]}`;
  return script && !argv.includes('-c') && !argv.includes('-e') ? `${program} ${basename(script)}` : program;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
