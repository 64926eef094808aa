/**
 * One run (docs/architecture.md): the one entry of run/ for the CLI, check-cases, the reporters and the library API.
 * runEval and runSequential run it; the options, a config file and meta.json are what it is made of and leaves; the
 * reporter hooks are what it tells as it goes.
 */
export { runEval, type RunHooks, type RunResult } from './run-eval.js';
export { runSequential, type SequentialOptions } from './sequential.js';
export { resolveOptions, type EvalOptions, type EvalOptionsInput } from './options.js';
export {
  BUDGET_KEYS,
  budgetOverrides,
  ConfigFileSchema,
  loadConfigFile,
  type BudgetKey,
  type LoadedConfig,
} from './config-file.js';
export { hangbenchVersion, readRunMeta, type RunMeta } from './meta.js';
export { parseShard, type Shard } from './shard.js';
export { runPool } from './pool.js';
export type { AttemptInfo, Reporter, ReporterFailure, ReporterHook, RunInfo, TickEvent } from './reporter-hooks.js';
