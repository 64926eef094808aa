import {
  CAPTURE_FLAGS,
  CHECK_CASES_FLAGS,
  COMPARE_FLAGS,
  INIT_FLAGS,
  LIST_FLAGS,
  MERGE_FLAGS,
  PLAN_FLAGS,
  REPORT_FLAGS,
  SCORE_FLAGS,
  VALIDATE_FLAGS,
  VIEW_FLAGS,
} from './command-flags.js';
import { EVAL_FLAGS } from './eval-flags.js';
import type { FlagTable } from './flag.js';

/** Every command's flag table, by command: what the docs' flag tables and the drift tests read. */
export const COMMAND_FLAGS: Readonly<Record<string, FlagTable>> = {
  eval: EVAL_FLAGS,
  validate: VALIDATE_FLAGS,
  'check-cases': CHECK_CASES_FLAGS,
  score: SCORE_FLAGS,
  report: REPORT_FLAGS,
  compare: COMPARE_FLAGS,
  plan: PLAN_FLAGS,
  merge: MERGE_FLAGS,
  view: VIEW_FLAGS,
  list: LIST_FLAGS,
  init: INIT_FLAGS,
  capture: CAPTURE_FLAGS,
};

export { renderFlagsMarkdown } from './render.js';
