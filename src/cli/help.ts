import { DEFAULTS } from '../defaults.js';
import {
  CAPTURE_FLAGS,
  CHECK_CASES_FLAGS,
  INIT_FLAGS,
  LIST_FLAGS,
  SCORE_FLAGS,
  VALIDATE_FLAGS,
} from './flags/command-flags.js';
import { EVAL_FLAGS } from './flags/eval-flags.js';
import { renderFlags, type Section } from './flags/render.js';

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

/** eval's help: the prose, then its flag table by section. */
export function evalHelp(): string {
  return `Usage: hangbench eval [paths…] [options]

Runs every case found in paths (case files, folders, or globs such as "cases/py-*.yaml"; default: cases/)
under every variant, and scores each attempt: reproduced, interrupted, fixed, false_kill, completed,
within_budget, clean, solved. Attempts are case × variant × repeat, interleaved in a seeded order; with more
than one variant the output compares them side by side with paired tests.
Traces go to <out>/<run-id>/<case>/<variant>/<repeat>/trace.jsonl.

${renderFlags(EVAL_FLAGS, EVAL_SECTIONS)}

Examples:
  hangbench eval --agent baseline --mode interval,no-output,timeout --interval 1s,3s --repeat 3 --time-scale 0.1
  OPENAI_API_KEY=… hangbench eval cases/ --agent openai --model gpt-4o-mini --prompt minimal,diagnostic --time-scale 0.5
  OPENAI_API_KEY=… hangbench eval cases/ --agent cli:codex --model gpt-5-mini --mode none,inband`;
}

export const EVAL_SECTIONS = {
  variants: {
    heading: `Variants: every flag below that takes a comma list is an axis; the variants are their cross product, and a
setting multiplies only the agents that take it. --agent baseline,oracle --mode interval,no-output
--interval 2s,5s is 2 × 2 × 2 = 8 variants, named like baseline-k2·no-output-5s.`,
  },
  agents: { heading: "Agents' settings (each taken by the agents it names):" },
  run: { heading: 'Options:' },
} as const satisfies Readonly<Record<string, Section>>;

export function validateHelp(): string {
  return `Usage: hangbench validate [paths…] [options]

Checks case files (schema, unknown keys, durations, unique ids) and their fixtures (the folder exists,
workspace/ and hidden/ are present, solution.patch applies cleanly) without running anything.
Every problem names file:line:column and the field. Exit 0 when all are valid, 2 otherwise.

${renderFlags(VALIDATE_FLAGS)}`;
}

export function checkCasesHelp(): string {
  return `Usage: hangbench check-cases [paths…] [options]

Proves every case (default: cases/) sound by running it, with the same sandbox, monitor and runner as eval:
  repro             hang: the onset is seen and the repro still runs ${DEFAULTS.checkHangTicks} ticks later; control: it exits 0 within its wall budget
  verify untouched  hang: the hidden verify fails on the workspace as shipped (the hang is real)
  verify patched    the hidden verify passes once solution.patch is applied
  oracle            an attempt with --agent oracle is solved (and leaves nothing running)
  nop               an attempt with --agent nop is not solved (the case tests something)
The repro and oracle checks of a case run one after the other (their timing matters), the others alongside;
traces and logs go to <out>/check-<run-id>/<case>/.

${renderFlags(CHECK_CASES_FLAGS)}

Exit codes: 0 every case is sound · 2 a case is unsound or invalid · 1 harness error · 130 interrupted`;
}

export function scoreHelp(): string {
  return `Usage: hangbench score <run-dir> [options]

Recomputes every score of a finished run from its trace.jsonl files (nothing is re-run), prints the
tables, and says whether each attempt's recorded score.json still agrees. Exit 0, or 1 when a
recorded score differs or a trace cannot be read.

${renderFlags(SCORE_FLAGS)}`;
}

export function listHelp(): string {
  return `Usage: hangbench list [paths…] [options]

Prints what "hangbench eval" with the same arguments would run, without running it: where the cases come from
(the paths given; else cases/ of the working folder; else the library bundled with hangbench), each case, the
variants and the number of attempts. Exit 0, or 2 when a case file is invalid. The variant flags are eval's.

${renderFlags(LIST_FLAGS, { variants: EVAL_SECTIONS.variants, agents: EVAL_SECTIONS.agents, run: { heading: 'Options:' } })}`;
}

export function initHelp(): string {
  return `Usage: hangbench init [dir] [options]

Writes hangbench.config.yaml and cases/ with one example case into dir (default: the working folder): the case
file, its fixture (workspace/, hidden/ with the verify check, solution.patch). "hangbench check-cases" proves it
sound; copy it to start your own. Refuses to overwrite existing files unless --force.

${renderFlags(INIT_FLAGS)}`;
}

export function captureHelp(): string {
  return `Usage: hangbench capture [options] -- COMMAND [args…]

Turns a hang you just hit into a draft case. Copies the working folder (its git-tracked files, or --include) into
a sandbox, runs COMMAND there under the monitor, and watches until the classification says hung for --ticks
ticks in a row (or you press Ctrl-C, or --max passes). Then it writes:
  cases/<id>.yaml                         repro, hang class from the ticks, onset from the last output, the ticks as comments
  fixtures/<id>/workspace/                the files the command ran on
  fixtures/<id>/hidden/check.sh           a verify check that fails until you write it
  fixtures/<id>/solution.patch            empty: add the fix as a unified diff
"hangbench check-cases cases/<id>.yaml" then says what is still missing.

${renderFlags(CAPTURE_FLAGS)}`;
}
