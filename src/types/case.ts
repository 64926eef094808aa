import { z } from 'zod';
import { CulpritSchema } from './culprit.js';
import { DurationSchema } from './duration.js';
import { DEFAULTS } from '../defaults.js';
import { TerminalSchema } from './terminal.js';

export const HANG_CLASSES = [
  'pipe-write-block',
  'pipe-read-block',
  'stdin-wait',
  'tty-prompt',
  'lock-deadlock',
  'async-never-resolves',
  'event-loop-kept-alive',
  'busy-loop',
  'retry-forever',
  'child-wait',
  'orphan-holds-pipe',
  'signal-ignored',
  'file-lock',
  'livelock',
  'output-flood',
  'sleep-forever',
  'watch-mode',
  'repl',
  'install-prompt',
  'background-never-reports',
  /** a client/daemon pair: the client was killed, its job runs on in the daemon */
  'orphan-after-kill',
  /** git (or another tool) starts a terminal editor with no terminal: it waits on a pipe for keys */
  'editor-no-tty',
  /** a background process group touches the terminal, is stopped (SIGTTIN/SIGTTOU) and waited for */
  'job-control-stop',
  /** a child has exited but its parent never reaps it, and something waits for that zombie to go */
  'zombie-unreaped',
  /** a child dies by a signal (SIGSEGV, SIGABRT) and its wrapper hides it: restarts it or waits on */
  'crash-hidden',
  /** the prompt comes from a process outside the command's tree (gpg-agent's pinentry) */
  'external-prompt',
  /** a login waits on a loopback listener for a browser callback that never comes */
  'login-callback',
] as const;

export const CONTROL_CLASSES = [
  'slow-progress',
  'quiet-compute',
  'quiet-sleep',
  'progress-bar',
  'bursty-output',
  'slow-io',
  'late-first-output',
  'many-children',
  'watch-run-once',
  'repl-scripted',
  'background-reached',
  'background-reports',
  /** a client/daemon pair whose daemon finishes the job and answers */
  'daemon-job-finishes',
  /** the editor step of a git command is bypassed; the command is only slow */
  'editor-bypassed',
  /** the terminal is touched from the foreground process group: nothing is stopped */
  'foreground-job',
  /** children that exit are reaped, so what waits for them sees them go */
  'child-reaped',
  /** a child crashes and its wrapper reports it and goes on */
  'crash-reported',
  /** a passphrase the agent needs is supplied without a prompt */
  'passphrase-supplied',
  /** a login uses a token from the environment instead of a browser */
  'token-login',
] as const;

export type HangClass = (typeof HANG_CLASSES)[number];
export type ControlClass = (typeof CONTROL_CLASSES)[number];

export const OnsetSchema = z.union([
  z.strictObject({
    output: z
      .string()
      .min(1)
      .describe('text whose appearance in stdout/stderr marks the hang (may span chunks, may be a partial line)'),
  }),
  z.strictObject({ start: z.literal(true).describe('the hang begins when the command starts') }),
  z.strictObject({ after: DurationSchema.describe('the hang begins this long after the command starts') }),
]);

const StdoutMatchSchema = z
  .string()
  .describe('literal substring, or /regex/ (JavaScript syntax, optional flags after the closing slash)');

export const VerifyStepSchema = z.strictObject({
  run: z.string().min(1).describe('shell command, run with bash -c in the sandboxed workspace'),
  timeout: DurationSchema.default(DEFAULTS.verifyTimeoutMs).describe(
    'scaled by --time-scale, with a floor of a few seconds',
  ),
  exit: z.number().int().min(0).max(255).default(0),
  stdout: StdoutMatchSchema.optional(),
  stderr: StdoutMatchSchema.optional(),
});

/** A visible check run when the agent says finish (Hermes `/goal gate`); unlike verify, the agent sees its result. */
export const GateSchema = z.strictObject({
  ...VerifyStepSchema.shape,
  retries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(DEFAULTS.gateRetries)
    .describe('failed rounds the agent may answer before its finish is accepted anyway'),
});

const HintText = z
  .string()
  .min(1)
  .describe('what "the user" says; delivered with the first observation after the trigger');
const AfterHint = z.strictObject({
  after: DurationSchema.describe('this long after the attempt starts (scaled by --time-scale)'),
  text: HintText,
});
const TicksHint = z.strictObject({
  ticks: z.number().int().min(1).describe('once this many ticks have reached the agent'),
  text: HintText,
});
const OnsetHint = z.strictObject({
  onset: DurationSchema.describe('this long after the ground-truth onset (scaled by --time-scale)'),
  text: HintText,
});

/** A control has no onset, so its hints trigger on time or ticks only. */
export const HangHintSchema = z.union([AfterHint, TicksHint, OnsetHint]);
export const ControlHintSchema = z.union([AfterHint, TicksHint]);

const BudgetsSchema = z.strictObject({
  tokens: z
    .number()
    .int()
    .positive()
    .default(DEFAULTS.caseBudgets.tokens)
    .describe('prompt + completion tokens over all model calls'),
  wall: DurationSchema.default(DEFAULTS.caseBudgets.wallMs).describe('the whole attempt, agent phase'),
  interrupt: DurationSchema.default(DEFAULTS.caseBudgets.interruptMs).describe(
    '(hang) the kill must come this soon after onset',
  ),
});

const CommonFields = {
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes')
    .optional()
    .describe('unique; defaults to the file name'),
  title: z.string().min(1),
  fixture: z.string().min(1).describe('fixture folder, relative to this case file'),
  issue: z.string().min(1).describe('what the agent is told, like a bug report; never the fix'),
  repro: z.string().min(1).describe('the command that shows the problem'),
  terminal: TerminalSchema.default('pipe'),
  source: z
    .array(z.string().regex(/^https:\/\/\S+$/, 'give the public report as an https:// URL'))
    .default([])
    .describe('the public report(s) the pattern comes from, as URLs'),
  budgets: BudgetsSchema.default({
    tokens: DEFAULTS.caseBudgets.tokens,
    wall: DEFAULTS.caseBudgets.wallMs,
    interrupt: DEFAULTS.caseBudgets.interruptMs,
  }),
  verify: z.array(VerifyStepSchema).min(1, 'give at least one hidden verify step'),
  tags: z.array(z.string()).default([]),
  gates: z.array(GateSchema).default([]).describe('visible checks that must pass when the agent says finish'),
};

/** A case reproduces a hang, or is its control: the same program without the hang, which must finish. */
export const CASE_KINDS = ['hang', 'control'] as const;
export type CaseKind = (typeof CASE_KINDS)[number];
export const CaseKindSchema = z.enum(CASE_KINDS);

export const CaseFileSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...CommonFields,
    kind: z.literal('hang'),
    hang: z.strictObject({ class: z.enum(HANG_CLASSES), onset: OnsetSchema, culprit: CulpritSchema.optional() }),
    hints: z.array(HangHintSchema).default([]).describe('messages from "the user" mid-run'),
  }),
  z.strictObject({
    ...CommonFields,
    kind: z.literal('control'),
    control: z.strictObject({ class: z.enum(CONTROL_CLASSES) }),
    hints: z.array(ControlHintSchema).default([]).describe('messages from "the user" mid-run'),
  }),
]);

export type CaseFile = z.infer<typeof CaseFileSchema>;
export type Onset = z.infer<typeof OnsetSchema>;
export type VerifyStep = z.infer<typeof VerifyStepSchema>;
export type Budgets = z.infer<typeof BudgetsSchema>;
export type Gate = z.infer<typeof GateSchema>;
export type Hint = z.infer<typeof HangHintSchema>;

/** A validated case, with its id resolved and its fixture path made absolute. */
export type Case = CaseFile & {
  readonly id: string;
  /** Absolute path of the case file. */
  readonly file: string;
  /** Absolute path of the fixture folder. */
  readonly fixtureDir: string;
};

export function caseClass(testCase: CaseFile): HangClass | ControlClass {
  return testCase.kind === 'hang' ? testCase.hang.class : testCase.control.class;
}
