// What each installed agent's own shell tool does to a hung command: the real CLI in the sandbox driven by the built-in
// probe model (`--model probe`: it runs the case's repro through the CLI's shell tool, waits as the tool allows — Codex:
// polls the session with write_stdin; opencode: no timeout argument —, interrupts, finishes; per CLI it is the adapter's
// `probe:` section), on a sleep-forever case and a pipe-deadlock case. Run: npm run build && node bench/installed-agents.mjs
// (minutes: the tools' own timeouts). ADAPTERS=codex,opencode and CASES=sleep-forever,py-pipe-deadlock choose. Prints
// the README's adapter table rows.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runEval } from '../dist/run/run-eval.js';
import { readTrace } from '../dist/scorers/index.js';

const REPO = path.resolve(import.meta.dirname, '..');
const ALL_CASES = {
  'sleep-forever': path.join(REPO, 'test/fixtures/installed/sleep-forever.yaml'),
  'py-pipe-deadlock': path.join(REPO, 'cases/py-pipe-deadlock.yaml'),
};
const CASES = (process.env.CASES ?? Object.keys(ALL_CASES).join(','))
  .split(',')
  .map((name) => ALL_CASES[/** @type {keyof typeof ALL_CASES} */ (name)]);

const out = await mkdtemp(path.join(tmpdir(), 'hangbench-adapters-'));
const rows = [];
for (const adapter of (process.env.ADAPTERS ?? 'codex,opencode').split(',')) {
  for (const caseFile of CASES) {
    const result = await runEval({
      caseInputs: [caseFile],
      agent: `cli:${adapter}`,
      model: 'probe',
      mode: 'none',
      intervalMs: 5000,
      concurrency: 1,
      out,
      runId: `${adapter}-${path.basename(caseFile, '.yaml')}`,
      cwd: REPO,
      budgets: { wallMs: 600_000, interruptMs: 60_000 },
    });
    const scores = result.summary.attempts[0];
    const events = await readTrace(path.join(result.runDir, scores.caseId, scores.variant, '1', 'trace.jsonl'));
    /** @type {any} */
    const start = events.find((event) => event.type === 'command.start' && event.isRepro);
    /** @type {any} */
    const exit = events.find((event) => event.type === 'command.exit' && event.commandId === start?.commandId);
    /** @type {any} */
    const kill = events.find((event) => event.type === 'kill' && event.commandId === start?.commandId);
    /** @type {any} */
    const onset = events.find((event) => event.type === 'onset' && event.commandId === start?.commandId);
    const notes = events.filter((event) => event.type === 'agent.note').map((event) => event.message);
    rows.push({
      adapter,
      case: scores.caseId,
      onset: onset ? ((onset.t - start.t) / 1000).toFixed(1) : '–',
      ended: exit ? ((exit.t - start.t) / 1000).toFixed(1) : '–',
      by: kill?.by ?? (exit ? 'exit' : '–'),
      signal: exit?.signal ?? exit?.exitCode ?? '–',
      cli: notes.at(-1) ?? '',
      interrupted: scores.scores.interrupted,
    });
    console.log(JSON.stringify(rows.at(-1)));
  }
}
console.log(
  '\n| adapter | case | onset (s after start) | repro ended (s after start) | ended by | signal / code | the CLI |',
);
console.log('|---|---|---|---|---|---|---|');
for (const row of rows)
  console.log(
    `| ${row.adapter} | ${row.case} | ${row.onset} | ${row.ended} | ${row.by} | ${row.signal} | ${row.cli} |`,
  );
await rm(out, { recursive: true, force: true });
