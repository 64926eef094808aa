import { formatDuration } from '../types/duration.js';
import { DEFAULTS } from '../defaults.js';
import { listBuiltinPrompts } from '../agents/openai/prompt-set.js';
import { MODE_NAMES, modeHelp } from '../modes/index.js';
import { AGENT_KINDS } from '../agents/registry.js';

export const MAIN_HELP = `hangbench — does an agent notice a hanging command, interrupt it in time, and fix the cause?

Usage: hangbench <command> [options]

Commands:
  eval [paths…]       run cases (default: cases/) with an agent; prints a table, writes results/<run>/
  validate [paths…]   check case files and fixtures without running anything
  check-cases [paths…] prove each case sound: the repro hangs, verify fails untouched and passes patched, oracle solves, nop does not
  score <run-dir>     recompute every score of a finished run from its traces
  report <run-dir>    re-render report.md, junit.xml and report.html (tick timelines) from the traces
  compare <base> <new> deltas between two runs; exit 4 on a regression (--markdown for a PR comment)
  plan <run> --detect 10pt  repeats per case a comparison needs, from a pilot run (and what they cost)
  merge <dirs…> --out DIR  join the run folders of eval --shard i/n into one run
  view [results-dir]  serve the reports on 127.0.0.1, updating running attempts live
  schema [case|config|trace|summary] print a JSON Schema: case files, --config files, trace events, summary.json
  list [paths…]       what eval would run: the cases and where they come from (yours, or the bundled library), variants
  init [dir]          scaffold hangbench.config.yaml and cases/ with one example case that check-cases proves sound
  capture -- CMD…     run CMD in the sandbox under the monitor until it hangs; write a draft case from what was seen

Run "hangbench <command> --help" for a command's options; "hangbench --version" prints the version; --debug (any
command) adds the stack to an error line.
Without paths, eval, list, validate and check-cases use cases/ of the working folder, else the bundled library.
Exit codes: 0 ok · 1 harness error · 2 invalid usage or invalid cases · 3 solved rate under --fail-under · 4 compare found a regression · 130 interrupted`;

export const EVAL_HELP = `Usage: hangbench eval [paths…] [options]

Runs every case found in paths (case files, folders, or globs such as "cases/py-*.yaml"; default: cases/)
under every variant, and scores each attempt: reproduced, interrupted, fixed, false_kill, completed,
within_budget, clean, solved. Attempts are case × variant × repeat, interleaved in a seeded order; with more
than one variant the output compares them side by side with paired tests.
Traces go to <out>/<run-id>/<case>/<variant>/<repeat>/trace.jsonl.

Variants: every flag below that takes a comma list is an axis; the variants are their cross product, and a
setting multiplies only the agents that take it. --agent baseline,oracle --mode interval,no-output
--interval 2s,5s is 2 × 2 × 2 = 8 variants, named like baseline-k2·no-output-5s.
  --agent LIST          ${AGENT_KINDS.filter((name) => name !== 'module').join(' | ')} | ./my-agent.mjs (default: ${DEFAULTS.agent}; offline, no model needed)
  --mode LIST           how the monitor tells the agent (default: ${DEFAULTS.mode}):
${MODE_NAMES.map((name) => `${' '.repeat(26)}${name.padEnd(11)}${modeHelp(name)}`).join('\n')}
                        (${MODE_NAMES.join(', ')})
  --interval LIST       each mode's period, e.g. 10s, 500ms (default: ${DEFAULTS.intervalMs / 1000}s)
  --hung-ticks LIST     baseline: kill after K consecutive "hung" ticks (default: ${DEFAULTS.hungTicks})
  --prompt LIST         openai: prompt folders (see below)
  --hints on|off|on,off deliver the cases' hints or not (default: on)
  --stdin LIST          the agent's commands' stdin: pipe (an open pipe), null (/dev/null), tty (a pty);
                        default as each case declares; the report tables each case by wiring
  --budget KEY=V,…      every variant's budgets instead of each case's, e.g. wall=6m,tokens=60000,interrupt=30s
                        (any of the three; unscaled durations, as a config file's budgets:)
  --config FILE         variants, cases, repeats and budgets from a YAML file (schema/config.schema.json;
                        docs/variants.md); it and the variant flags above do not mix

Options:
  --repeat N            attempts per case and variant (default: ${DEFAULTS.repeat}); gives pass@k, pass^k and tighter intervals
  --repeat-until decided  add repeats a round at a time until every comparison of --metric is decided (an
                        always-valid sign test, so stopping early keeps α; docs/statistics.md), at most --max-repeat
  --max-repeat N        the most repeats --repeat-until adds (default: ${DEFAULTS.maxRepeat})
  --metric NAMES        the comparisons --repeat-until must decide (default: ${DEFAULTS.sequentialMetrics.join(',')})
  --seed N              seed of the attempt order and the bootstrap intervals (default: ${DEFAULTS.seed})
  --time-scale F        multiply every case duration and the interval by F; fixtures scale their sleeps (default: 1)
  --concurrency N       at most N attempts at once (default: by load — up to ${DEFAULTS.idleAttemptsPerCore} per core; CPU-heavy cases on all cores but one)
  --out DIR             results folder (default: ${DEFAULTS.out})
  --run-id ID           name of the run folder (default: a timestamp)
  --max-turns N         stop an agent after N actions (default: ${DEFAULTS.maxTurns})
  --fail-under RATE     exit 3 when the solved rate is below RATE (0–1 or a percentage like 80%)
  --json                print the run summary as JSON on stdout (progress still goes to stderr)
  --isolation MODE      auto: bubblewrap when the host has it, else the host-user fallback with a warning;
                        strict: refuse to run without bubblewrap (for scores that must be trustworthy) (default: auto)
  --shard i/n           run slice i of n of the attempts (deterministic, balanced by expected duration);
                        join the slices with hangbench merge (docs/reports.md)
  --resume RUN_DIR      finish an interrupted run: keep its attempts that have a score.json, run the others into
                        the same folder with the options in its meta.json (only --concurrency may change)
  -h, --help            this help

--agent openai (any OpenAI-compatible chat-completions endpoint; the key only from OPENAI_API_KEY):
  --model NAME          model to call (required)
  --base-url URL        endpoint, e.g. http://localhost:11434/v1 (default: OPENAI_BASE_URL, else api.openai.com)
  --prompt LIST         system prompt and tick template, each a name or a folder: ${listBuiltinPrompts().join(' | ')} or a folder (default: ${DEFAULTS.prompt})
  --cache DIR           reuse responses for identical requests of the same repeat (default: off)
--agent replay:
  --from RUN_DIR        replay the actions recorded in RUN_DIR/<case>/<variant>/<repeat>/trace.jsonl
--agent exec:
  --cmd "COMMAND"       an external agent speaking JSON lines on stdin/stdout (docs/agent-protocol.md)
  --agent-env NAMES     the only variables of this environment its own (sandboxed) process gets, e.g. OPENAI_API_KEY
  --agent-allow-host H  hosts its egress proxy lets through (default: the host of OPENAI_BASE_URL); all else 403
--agent cli:NAME (an installed agent CLI run as it is in the sandbox: cli:codex, cli:opencode, cli:claude, cli:gemini,
                 cli:qwen, cli:pi, cli:cline, cli:generic; docs/installed-agents.md):
  --model NAME          model the CLI asks for, through the model proxy (required); probe: no endpoint, the proxy
                        answers itself (run the repro with the CLI's shell tool, wait as it allows, interrupt, finish)
  --base-url URL        the real endpoint the proxy forwards to, with OPENAI_API_KEY (default: OPENAI_BASE_URL, else api.openai.com)
  --set NAME=V1,V2      an adapter setting as a variant axis (repeatable), e.g. --set unified_exec=enable,disable
  --cmd 'CMD {issue_file}'  cli:generic only: the command to run
--agent ./my-agent.mjs (or .ts): a module whose default export is defineAgent({ create }), run in-process (docs/api.md)

Examples:
  hangbench eval --agent baseline --mode interval,no-output,timeout --interval 1s,3s --repeat 3 --time-scale 0.1
  OPENAI_API_KEY=… hangbench eval cases/ --agent openai --model gpt-4o-mini --prompt minimal,diagnostic --time-scale 0.5
  OPENAI_API_KEY=… hangbench eval cases/ --agent cli:codex --model gpt-5-mini --mode none,inband`;

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
  --concurrency N       cases checked at once (default: ${DEFAULTS.checkConcurrency})
  --out DIR             results folder (default: ${DEFAULTS.out})
  --run-id ID           name of the check's folder (default: check-<timestamp>)
  --json                print the result as JSON on stdout (progress still goes to stderr)
  --isolation MODE      auto (default): bubblewrap when the host has it, else the host-user fallback with a warning;
                        strict: refuse to run without bubblewrap (exit 1)
  -h, --help            this help

Exit codes: 0 every case is sound · 2 a case is unsound or invalid · 1 harness error · 130 interrupted`;

export const SCORE_HELP = `Usage: hangbench score <run-dir> [--json]

Recomputes every score of a finished run from its trace.jsonl files (nothing is re-run), prints the
tables, and says whether each attempt's recorded score.json still agrees. Exit 0, or 1 when a
recorded score differs or a trace cannot be read.`;

export const LIST_HELP = `Usage: hangbench list [paths…] [--config FILE] [variant flags of eval] [--repeat N] [--json]

Prints what "hangbench eval" with the same arguments would run, without running it: where the cases come from
(the paths given; else cases/ of the working folder; else the library bundled with hangbench), each case, the
variants and the number of attempts. Exit 0, or 2 when a case file is invalid.`;

export const INIT_HELP = `Usage: hangbench init [dir] [--force]

Writes hangbench.config.yaml and cases/ with one example case into dir (default: the working folder): the case
file, its fixture (workspace/, hidden/ with the verify check, solution.patch). "hangbench check-cases" proves it
sound; copy it to start your own. Refuses to overwrite existing files unless --force.`;

export const CAPTURE_HELP = `Usage: hangbench capture [options] -- COMMAND [args…]

Turns a hang you just hit into a draft case. Copies the working folder (its git-tracked files, or --include) into
a sandbox, runs COMMAND there under the monitor, and watches until the classification says hung for --ticks
ticks in a row (or you press Ctrl-C, or --max passes). Then it writes:
  cases/<id>.yaml                         repro, hang class from the ticks, onset from the last output, the ticks as comments
  fixtures/<id>/workspace/                the files the command ran on
  fixtures/<id>/hidden/check.sh           a verify check that fails until you write it
  fixtures/<id>/solution.patch            empty: add the fix as a unified diff
"hangbench check-cases cases/<id>.yaml" then says what is still missing.

Options:
  --id ID           the case id (default: from the command)
  --include LIST    comma list of files or folders to copy instead of the git-tracked files
  --interval D      the monitor's tick period (default: ${formatDuration(DEFAULTS.captureIntervalMs)})
  --ticks N         hung ticks in a row that end the capture (default: ${DEFAULTS.captureHungTicks})
  --max D           give up after this long without a hung classification (default: ${formatDuration(DEFAULTS.captureMaxMs)})
  --terminal MODE   pipe (default) or pty, as the case's terminal
  --out DIR         where cases/ and fixtures/ are written (default: the working folder)
  --force           overwrite a case of the same id
  -h, --help        this help`;
