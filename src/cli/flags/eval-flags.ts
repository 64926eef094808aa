import { DEFAULTS } from '../../defaults.js';
import { parseShard } from '../../run/index.js';
import { HangbenchError } from '../../types/errors.js';
import { flag } from './flag.js';
import { resumeAllows } from './resume-check.js';
import { SANDBOX_FLAGS } from './sandbox-flags.js';
import { integer, list, parsed, positive, rate, text } from './values.js';
import { VARIANT_FLAGS } from './variant-flags.js';

/** `--repeat-until decided`: the one condition there is. */
const untilDecided = parsed(
  'decided',
  (value): 'decided' => {
    if (value !== 'decided')
      throw new HangbenchError(
        'USAGE',
        `--repeat-until ${value}: the one condition is "decided" (every comparison decided)`,
      );
    return value;
  },
  (value) => value,
);

/** eval's and list's (which counts what eval would run). */
export const REPEAT_FLAGS = {
  repeat: flag({
    value: integer(),
    section: 'run',
    resume: 'may grow',
    help: 'attempts per case and variant; gives pass@k, pass^k and tighter intervals',
    default: DEFAULTS.repeat,
  }),
} as const;

/** Every flag of `hangbench eval`, in the order --help lists them: parsing, help, --resume and docs/cli.md read it. */
export const EVAL_FLAGS = {
  ...VARIANT_FLAGS,
  'agent-env': flag({
    value: list(text(''), 'NAMES'),
    section: 'agents',
    resume: 'recorded',
    help: 'exec: the only variables of this environment its own (sandboxed) process gets, e.g. OPENAI_API_KEY',
  }),
  'agent-allow-host': flag({
    value: list(text(''), 'H'),
    section: 'agents',
    resume: 'recorded',
    help: 'exec: hosts its egress proxy lets through; all else 403',
    defaultText: 'the host of OPENAI_BASE_URL',
  }),
  ...REPEAT_FLAGS,
  'repeat-until': flag({
    value: untilDecided,
    section: 'run',
    resume: 'not recorded',
    help: 'add repeats a round at a time until every comparison of --metric is decided (an\nalways-valid sign test, so stopping early keeps α; docs/statistics.md), at most --max-repeat',
  }),
  'max-repeat': flag({
    value: integer(),
    section: 'run',
    resume: 'not recorded',
    help: 'the most repeats --repeat-until adds',
    default: DEFAULTS.maxRepeat,
  }),
  metric: flag({
    value: list(text(''), 'NAMES'),
    section: 'run',
    resume: 'not recorded',
    help: 'the comparisons --repeat-until must decide',
    default: DEFAULTS.sequentialMetrics,
  }),
  seed: flag({
    value: integer('N', 0),
    section: 'run',
    resume: 'recorded',
    help: 'seed of the attempt order and the bootstrap intervals',
    default: DEFAULTS.seed,
  }),
  'time-scale': flag({
    value: positive(),
    section: 'run',
    resume: 'recorded',
    help: 'multiply every case duration and the interval by F; fixtures scale their sleeps',
    default: DEFAULTS.timeScale,
  }),
  concurrency: flag({
    value: integer(),
    section: 'run',
    resume: 'may change',
    help: 'at most N attempts at once',
    defaultText: `by load — up to ${DEFAULTS.idleAttemptsPerCore} per core; CPU-heavy cases on all cores but one`,
  }),
  out: flag({
    value: text('DIR'),
    section: 'run',
    resume: 'recorded',
    help: 'results folder',
    default: DEFAULTS.out,
  }),
  'run-id': flag({
    value: text('ID'),
    section: 'run',
    resume: 'recorded',
    help: 'name of the run folder',
    defaultText: 'a timestamp',
  }),
  'max-turns': flag({
    value: integer(),
    section: 'run',
    resume: 'recorded',
    help: 'stop an agent after N actions',
    default: DEFAULTS.maxTurns,
  }),
  'fail-under': flag({
    value: rate(),
    section: 'run',
    resume: 'not recorded',
    help: 'exit 3 when the solved rate is below RATE (0–1 or a percentage like 80%)',
  }),
  json: flag({
    section: 'run',
    resume: 'not recorded',
    help: 'print the run summary as JSON on stdout (progress still goes to stderr)',
  }),
  ...SANDBOX_FLAGS,
  shard: flag({
    value: parsed('i/n', parseShard, (shard) => `${shard.index}/${shard.count}`),
    section: 'run',
    resume: 'recorded',
    help: 'run slice i of n of the attempts (deterministic, balanced by expected duration);\njoin the slices with hangbench merge (docs/reports.md)',
  }),
  resume: flag({
    value: text('RUN_DIR'),
    section: 'run',
    resume: 'not recorded',
    help: (): string =>
      `finish an interrupted run: keep its attempts that have a score.json, run the others into\nthe same folder with the options in its meta.json (${resumeAllows(EVAL_FLAGS)})`,
  }),
} as const;
