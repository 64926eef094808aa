import { DEFAULTS } from '../runner/options.js';
import { listBuiltinPrompts } from '../agents/openai/prompt-set.js';
import { AGENT_NAMES } from '../agents/registry.js';

export const MAIN_HELP = `hangbench — does an agent notice a hanging command, interrupt it in time, and fix the cause?

Usage: hangbench <command> [options]

Commands:
  eval [paths…]       run cases (default: cases/) with an agent; prints a table, writes results/<run>/
  validate [paths…]   check case files and fixtures without running anything
  check-cases [paths…] prove each case sound: the repro hangs, verify fails untouched and passes patched, oracle solves, nop does not
  score <run-dir>     recompute every score of a finished run from its traces
  schema              print the JSON Schema of case files (for editor completion)

Run "hangbench <command> --help" for a command's options.
Exit codes: 0 ok · 1 harness error · 2 invalid usage or invalid cases · 3 solved rate under --fail-under · 130 interrupted`;

export const EVAL_HELP = `Usage: hangbench eval [paths…] [options]

Runs every case found in paths (case files, folders, or globs such as "cases/py-*.yaml"; default: cases/)
with one agent, and scores each attempt: reproduced, interrupted, fixed, false_kill, completed,
within_budget, clean, solved. Traces go to <out>/<run-id>/<case>/<variant>/<repeat>/trace.jsonl.

Options:
  --agent NAME          ${AGENT_NAMES.join(' | ')} (default: ${DEFAULTS.agent}; offline, no model needed)
  --interval DURATION   monitor tick interval, e.g. 10s, 500ms (default: ${DEFAULTS.intervalMs / 1000}s)
  --time-scale F        multiply every case duration and the interval by F; fixtures scale their sleeps (default: 1)
  --concurrency N       at most N attempts at once (default: by load — up to 16 per core; CPU-heavy cases on all cores but one)
  --repeat N            attempts per case (default: 1)
  --out DIR             results folder (default: ${DEFAULTS.out})
  --run-id ID           name of the run folder (default: a timestamp)
  --hung-ticks K        baseline: kill after K consecutive "hung" ticks (default: ${DEFAULTS.hungTicks})
  --max-turns N         stop an agent after N actions (default: ${DEFAULTS.maxTurns})
  --fail-under RATE     exit 3 when the solved rate is below RATE (0–1 or a percentage like 80%)
  --json                print the run summary as JSON on stdout (progress still goes to stderr)
  --resume RUN_DIR      finish an interrupted run: keep its attempts that have a score.json, run the others into
                        the same folder with the options in its meta.json (only --concurrency may change)
  -h, --help            this help

--agent openai (any OpenAI-compatible chat-completions endpoint; the key only from OPENAI_API_KEY):
  --model NAME          model to call (required)
  --base-url URL        endpoint, e.g. http://localhost:11434/v1 (default: OPENAI_BASE_URL, else api.openai.com)
  --prompt NAME|DIR     system prompt and tick template: ${listBuiltinPrompts().join(' | ')} or a folder (default: ${DEFAULTS.prompt})
  --cache DIR           reuse responses for identical requests of the same repeat (default: off)
--agent replay:
  --from RUN_DIR        replay the actions recorded in RUN_DIR/<case>/<variant>/<repeat>/trace.jsonl
--agent exec:
  --cmd "COMMAND"       an external agent speaking JSON lines on stdin/stdout (docs/agent-protocol.md)

Example: OPENAI_API_KEY=… hangbench eval cases/ --agent openai --model gpt-4o-mini --prompt diagnostic --time-scale 0.5`;

export const VALIDATE_HELP = `Usage: hangbench validate [paths…] [--json]

Checks case files (schema, unknown keys, durations, unique ids) and their fixtures (the folder exists,
workspace/ and hidden/ are present, solution.patch applies cleanly) without running anything.
Every problem names file:line:column and the field. Exit 0 when all are valid, 2 otherwise.`;

export const CHECK_CASES_HELP = `Usage: hangbench check-cases [paths…] [options]

Proves every case (default: cases/) sound by running it, with the same sandbox, monitor and runner as eval:
  repro             hang: the onset is seen and the repro still runs 3 ticks later; control: it exits 0 within its wall budget
  verify untouched  hang: the hidden verify fails on the workspace as shipped (the hang is real)
  verify patched    the hidden verify passes once solution.patch is applied
  oracle            an attempt with --agent oracle is solved (and leaves nothing running)
  nop               an attempt with --agent nop is not solved (the case tests something)
The repro and oracle checks of a case run one after the other (their timing matters), the others alongside;
traces and logs go to <out>/check-<run-id>/<case>/.

Options:
  --time-scale F        multiply every case duration and the tick interval by F (default: 0.1 — a CI gate, not a
                        benchmark; relative timing is kept, verify timeouts keep a floor of ${DEFAULTS.verifyFloorMs / 1000}s)
  --concurrency N       cases checked at once (default: ${DEFAULTS.concurrency})
  --out DIR             results folder (default: ${DEFAULTS.out})
  --run-id ID           name of the check's folder (default: check-<timestamp>)
  --json                print the result as JSON on stdout (progress still goes to stderr)
  -h, --help            this help

Exit codes: 0 every case is sound · 2 a case is unsound or invalid · 1 harness error · 130 interrupted`;

export const SCORE_HELP = `Usage: hangbench score <run-dir> [--json]

Recomputes every score of a finished run from its trace.jsonl files (nothing is re-run), prints the
tables, and says whether each attempt's recorded score.json still agrees. Exit 0, or 1 when a
recorded score differs or a trace cannot be read.`;
