import { DEFAULTS } from '../defaults.js';
import { COMPARE_FLAGS, MERGE_FLAGS, REPORT_FLAGS, VIEW_FLAGS } from './flags/command-flags.js';
import { renderFlags } from './flags/render.js';

export function reportHelp(): string {
  return `Usage: hangbench report <run-dir> [options]

Re-renders every report of a run from its traces: re-scores each finished attempt (score.json), rebuilds
summary.json, then writes report.md (for $GITHUB_STEP_SUMMARY and PR comments), junit.xml (a test case per
attempt) and report.html (one self-contained file: charts, and a tick timeline per attempt). Every file is
written by rename.

${renderFlags(REPORT_FLAGS)}`;
}

export function compareHelp(): string {
  return `Usage: hangbench compare <base-run> <new-run> [options]

Per-variant and per-case deltas between two runs (run folders or summary.json files), and regressions:
  a case solved in every base attempt that now fails (or solved in some and now in none),
  a rate whose 95 % interval moved wholly below the base's (for false kills: wholly above),
  interrupt latency up beyond the noise of the repeats (paired over cases; see docs/reports.md).
Refuses runs of another summary version, or another case set unless --allow-different-cases (then only the
cases in both are compared).

${renderFlags(COMPARE_FLAGS)}

Exit codes: 0 no regression · 4 regression · 2 invalid usage or runs that cannot be compared`;
}

export function mergeHelp(): string {
  return `Usage: hangbench merge <shard-run-dir…> --out <dir>

Joins the run folders of "eval --shard i/n" into one run: copies every attempt, checks that the shards ran the
same options (the shard aside), the same cases and the same hangbench, summary and trace versions, that each
shard is there once, and writes meta.json, summary.json and the reports. The merged summary equals the one
an unsharded run would have written (timings aside). Refuses overlapping, missing or mismatched shards.

${renderFlags(MERGE_FLAGS)}`;
}

export function viewHelp(): string {
  return `Usage: hangbench view [results-dir] [options]

Serves the reports of every run under results-dir (default: ${DEFAULTS.out}) on loopback, rendered from the traces on
each request, and updates a running run's attempts as their traces grow (server-sent events). Stop with Ctrl-C.

${renderFlags(VIEW_FLAGS)}`;
}
