// The two-case smoke of every bundled agent CLI with the built-in probe model (no endpoint, no key): each CLI starts in
// the jail, runs the case's repro through its own shell tool (the shim reports it), and every attempt ends. Budgets are the
// probe's: at least each tool's own longest deadline plus a margin, so every tool can speak (a few minutes in all). Where
// the tool returns the hung repro still running, the probe's interrupt must end it (a kill by the agent, not the budget).
// node scripts/smoke-clis.mjs [--out DIR] [cli …]. Needs the CLIs in the agent cache (node scripts/install-agents.mjs).
// Exit 1 with one line per attempt that did not, naming the CLI, the case and what is missing.
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adapterDirs } from '../dist/agents/cli/adapter.js';
import { runEval } from '../dist/run/run-eval.js';
import { readTrace } from '../dist/scorers/index.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../..');
/** A hang that waits for ever after a line of output, and a control that finishes in ~1.5 s; 60 s walls. */
const CASES = ['test/fixtures/installed/sleep-forever.yaml', 'test/fixtures/installed/slow-ok.yaml'].map((file) =>
  path.join(REPO, file),
);

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args.splice(outAt, 2)[1] : await mkdtemp(path.join(tmpdir(), 'hangbench-smoke-'));
const bundled = (await readdir(adapterDirs({}).at(-1)))
  .filter((file) => file.endsWith('.yaml') && file !== 'generic.yaml')
  .map((file) => path.basename(file, '.yaml'));
const clis = args.length > 0 ? args : bundled.sort();

const started = performance.now();
// Every attempt at once: most of each is a CLI waiting on its own timeout or on the wall budget, not CPU.
const result = await runEval({
  caseInputs: CASES,
  agent: clis.map((name) => `cli:${name}`),
  model: 'probe',
  mode: 'none',
  concurrency: clis.length * CASES.length,
  out,
  runId: 'smoke',
  cwd: REPO,
});
const problems = [];
for (const attempt of result.summary.attempts) {
  const dir = path.join(result.runDir, attempt.caseId, attempt.variant, String(attempt.repeat));
  const events = await readTrace(path.join(dir, 'trace.jsonl'));
  const repro = attempt.caseId === 'installed-sleep-forever' ? 'bash serve.sh' : 'bash slow.sh';
  const start = events.find((event) => event.type === 'command.start' && event.command.includes(repro));
  const what = `${attempt.variant} on ${attempt.caseId}`;
  if (!events.some((event) => event.type === 'model.request'))
    problems.push(`${what}: no model request reached the proxy`);
  else if (!start) problems.push(`${what}: the shim saw no command running ${repro}`);
  else if (!events.some((event) => event.type === 'command.exit' && event.commandId === start.commandId))
    problems.push(`${what}: ${repro} never ended`);
  if (!events.some((event) => event.type === 'attempt.end')) problems.push(`${what}: no attempt.end`);
  const { tool_end: toolEnd, interrupted, agent_exit: exit } = attempt.scores;
  if (attempt.kind === 'hang') {
    if (toolEnd === 'budget-first') problems.push(`${what}: the wall budget ended it before the tool's own deadline`);
    if (toolEnd === 'returned-running') {
      const kill = events.find((event) => event.type === 'kill' && event.commandId === start?.commandId);
      const exit = events.find((event) => event.type === 'command.exit' && event.commandId === start?.commandId);
      // A budget must not be what ended it. The probe's kill matches the repro's command line, so it ends the repro
      // itself; a process the tool's own signal orphaned (continue's SIGTERM to the shell leaves serve.sh's sleep) has
      // another command line, and the attempt ends it once the CLI has finished: said, not failed.
      if (!kill || attempt.outcome === 'limit')
        problems.push(
          `${what}: the tool returned ${repro} running and it was not ended within the attempt (kill by ${kill?.by ?? 'none'}, outcome ${attempt.outcome})`,
        );
      else if (kill.by !== 'agent')
        console.log(
          `${what}: the tool returned ${repro} running; its leader ${exit?.signal ? `ended by ${exit.signal}` : 'was still there'}, and what was left was ended with the attempt (${kill.by}), not by the probe's kill`,
        );
    }
  }
  console.log(
    `${what}: ${attempt.outcome ?? '?'} (${start ? 'repro observed' : 'repro not observed'}; tool ${toolEnd ?? '–'}; interrupted ${interrupted ?? '–'}; CLI ${exit ?? '–'})`,
  );
}
console.log(
  `${result.summary.attempts.length} attempts of ${clis.length} CLIs in ${((performance.now() - started) / 1000).toFixed(0)} s; results in ${result.runDir}`,
);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
