import { DEFAULTS } from '../../defaults.js';
import { COMPARED_METRICS } from '../../summary/index.js';
import { formatDuration } from '../../types/duration.js';
import { REPEAT_FLAGS } from './eval-flags.js';
import { flag } from './flag.js';
import { SANDBOX_FLAGS } from './sandbox-flags.js';
import { choice, duration, integer, list, positive, text } from './values.js';
import { VARIANT_FLAGS } from './variant-flags.js';

/** The flags of every command but eval (eval-flags.ts), each table in the order its --help lists them. */

export const CHECK_CASES_FLAGS = {
  'time-scale': flag({
    value: positive(),
    help: `multiply every case duration and the tick interval by F (a CI gate, not a benchmark;\nrelative timing is kept, verify timeouts keep a floor of ${formatDuration(DEFAULTS.verifyFloorMs)})`,
    default: DEFAULTS.checkTimeScale,
  }),
  concurrency: flag({
    value: integer(),
    help: 'cases checked at once',
    defaultText: `one a core, at most ${DEFAULTS.checkConcurrencyMax}`,
  }),
  out: flag({ value: text('DIR'), help: 'results folder', default: DEFAULTS.out }),
  'run-id': flag({ value: text('ID'), help: "name of the check's folder", defaultText: 'check-<timestamp>' }),
  json: flag({ help: 'print the result as JSON on stdout (progress still goes to stderr)' }),
  ...SANDBOX_FLAGS,
} as const;

export const VALIDATE_FLAGS = {
  json: flag({ help: 'print the valid case ids and every problem as JSON' }),
} as const;

export const SCORE_FLAGS = {
  json: flag({ help: 'print the rescored summary, with the attempts whose score.json differs, as JSON' }),
} as const;

export const REPORT_FLAGS = {
  'no-rescore': flag({ help: 'keep the recorded summary.json and only render the reports' }),
} as const;

export const COMPARE_FLAGS = {
  markdown: flag({ help: 'print Markdown for a PR comment' }),
  json: flag({ help: 'print the comparison as JSON' }),
  'allow-different-cases': flag({ help: 'compare runs of different case sets, on the cases in both' }),
} as const;

export const PLAN_FLAGS = {
  detect: flag({
    value: text('EFFECT'),
    help: 'the smallest difference you want to be able to see (required): 10pt (ten percentage points\nof a rate: interrupted, false kills, solved, fixed, diagnosed), 2s or 500ms (interrupt latency), 300tokens',
  }),
  metric: flag({
    value: list(text(''), 'NAMES'),
    help: () => `only these metrics (${COMPARED_METRICS.map((metric) => metric.metric).join(', ')})`,
    defaultText: "every compared metric measured in EFFECT's unit",
  }),
  power: flag({
    value: positive('P'),
    help: 'the chance of seeing a difference of that size when it is there (between 0 and 1)',
    default: DEFAULTS.power,
  }),
  json: flag({ help: 'print the plan as JSON' }),
} as const;

export const MERGE_FLAGS = {
  out: flag({ value: text('DIR'), help: 'the folder of the merged run (required)' }),
} as const;

export const VIEW_FLAGS = {
  port: flag({ value: integer('N', 0), help: 'the port to listen on (0: any free one)', default: DEFAULTS.viewPort }),
  host: flag({ value: text('HOST'), help: 'loopback only: 127.0.0.1, localhost or ::1', default: DEFAULTS.viewHost }),
} as const;

export const LIST_FLAGS = {
  ...VARIANT_FLAGS,
  ...REPEAT_FLAGS,
  json: flag({ help: 'print the cases, variants, repeats and attempts as JSON' }),
} as const;

export const INIT_FLAGS = {
  force: flag({ help: 'overwrite the files that already exist' }),
} as const;

export const CAPTURE_FLAGS = {
  id: flag({ value: text('ID'), help: 'the case id', defaultText: 'from the command' }),
  include: flag({
    value: list(text('')),
    help: 'comma list of files or folders to copy instead of the git-tracked files',
  }),
  interval: flag({ value: duration(), help: "the monitor's tick period", default: DEFAULTS.captureIntervalMs }),
  ticks: flag({
    value: integer(),
    help: 'hung ticks in a row that end the capture',
    default: DEFAULTS.captureHungTicks,
  }),
  max: flag({
    value: duration(),
    help: 'give up after this long without a hung classification',
    default: DEFAULTS.captureMaxMs,
  }),
  terminal: flag({
    value: choice(['pipe', 'pty']),
    help: "the captured command's terminal, as a case's terminal:",
    default: DEFAULTS.captureTerminal,
  }),
  out: flag({ value: text('DIR'), help: 'where cases/ and fixtures/ are written', defaultText: 'the working folder' }),
  force: flag({ help: 'overwrite a case of the same id' }),
  ...SANDBOX_FLAGS,
} as const;
